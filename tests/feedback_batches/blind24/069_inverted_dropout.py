import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p must be in [0, 1], got {p}")
    if p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    draws = torch.rand(x.shape, dtype=x.dtype)
    return x * (draws >= p) / (1 - p)
