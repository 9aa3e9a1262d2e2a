import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"inverted_dropout: p must be in [0, 1], got p={p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator) >= p
    return torch.where(keep, x / (1.0 - p), 0.0)
