import torch


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(f"p={p} is not in [0, 1]")
    if p == 1:
        return torch.zeros_like(x)
    keep = (torch.rand_like(x) >= p).to(x.dtype)
    return x * keep / (1 - p)
