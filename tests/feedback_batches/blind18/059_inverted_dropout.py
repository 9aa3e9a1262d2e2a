import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not (0.0 <= p <= 1.0):
        raise ValueError(f"inverted_dropout: p must be a probability in [0, 1], got p={p!r}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    u = torch.empty(x.shape, dtype=x.dtype, device=x.device).uniform_(generator=generator)
    return torch.where(u < p, torch.zeros_like(x), x / (1.0 - p))
