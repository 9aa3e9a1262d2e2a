import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not (0.0 <= p <= 1.0):
        raise ValueError(f"p must be a probability in [0, 1], got p={p}")
    if p == 0 or not training:
        return x
    if p == 1:
        return torch.zeros_like(x)
    u = torch.empty(x.shape, dtype=x.dtype, device=x.device).uniform_(generator=generator)
    return torch.where(u < p, torch.zeros_like(x), x / (1 - p))
