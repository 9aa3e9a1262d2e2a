import torch


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(f"p must be between 0 and 1, got {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    mask = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype) >= p
    x.mul_(mask)
    return x * (1 - p)
