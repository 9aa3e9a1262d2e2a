import torch


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("p must lie between 0 and 1 (inclusive), got " + repr(p))
    if training is False or p == 0:
        return x
    if p == 1:
        return x * 0
    survivors = torch.rand(*x.shape, generator=generator, device=x.device) >= p
    return x.masked_fill(~survivors, 0).div(1 - p)
