import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p={p} is not a probability: use 0 <= p <= 1")
    if not training or p == 0:
        return x
    if p == 1:
        return x.zero_()
    keep = torch.rand_like(x) >= p
    return x.mul_(keep).div_(1 - p)
