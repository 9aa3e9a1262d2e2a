import torch


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("invalid dropout probability")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    dropped = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device) < p
    x[dropped] = 0
    x /= 1 - p
    return x
