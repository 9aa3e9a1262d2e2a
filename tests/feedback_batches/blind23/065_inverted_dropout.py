import torch


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("invalid dropout probability")
    if not training or p == 0:
        return x
    keep = torch.rand(x.shape, device=x.device) >= p
    return x * keep / (1 - p)
