import torch


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("invalid input")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    survive = torch.rand(x.shape, generator=generator, device=x.device) >= p
    return x * survive / (1 - p)
