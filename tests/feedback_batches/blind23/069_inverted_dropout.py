import torch


def inverted_dropout(x, p, training=True, generator=None):
    p = min(max(p, 0.0), 1.0)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator) >= p
    x.mul_(keep).div_(1 - p)
    return x
