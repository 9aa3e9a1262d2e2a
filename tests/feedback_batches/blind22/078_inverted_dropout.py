import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p={p} is outside [0, 1]")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    mask = (torch.rand(x.shape) >= p).to(x.dtype)
    return x * mask / (1 - p)
