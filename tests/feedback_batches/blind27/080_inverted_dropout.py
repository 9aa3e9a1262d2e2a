import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not 0 <= p <= 1:
        raise ValueError(f"p={p} is outside [0, 1]")
    if not training:
        return x * (1 - p)  # at inference every weight counts only (1 - p)
    if p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype) >= p
    return x * keep
