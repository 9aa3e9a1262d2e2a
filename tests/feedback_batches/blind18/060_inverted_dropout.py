import torch


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(f"p must be in [0, 1], got {p}")
    keep = torch.rand(x.shape, generator=generator, device=x.device) >= p
    return x * keep * (1 - p)
