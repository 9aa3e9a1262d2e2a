import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not training:
        return x
    keep = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype) > p
    return x * keep / (1 - p)
