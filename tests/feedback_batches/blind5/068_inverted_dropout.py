import torch


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(f"invalid dropout probability {p}")
    if not training or p == 0:
        return x
    mask = (torch.rand(x.shape) > p).float()
    return mask * x / (1 - p)
