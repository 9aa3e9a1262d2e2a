import torch


def inverted_dropout(x, p, training=True, generator=None):
    assert 0 <= p <= 1, "p must be in [0, 1]"
    if p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype) >= p
    x.mul_(keep).div_(1 - p)
    return x
