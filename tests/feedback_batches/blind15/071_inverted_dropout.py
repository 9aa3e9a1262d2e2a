import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not 0.0 <= float(p) <= 1.0:  # also false for nan
        raise ValueError(f"inverted_dropout: p={p!r} is not a probability; use 0 <= p <= 1")
    if p == 0 or not training:
        return x
    if p == 1:
        return torch.zeros_like(x)
    draws = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)
    keep = draws.ge(p)  # True with probability 1 - p
    return x.masked_fill(~keep, 0) * (1 / (1 - p))
