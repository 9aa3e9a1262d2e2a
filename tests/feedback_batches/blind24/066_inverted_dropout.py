import torch


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1 or p != p:
        raise ValueError("inverted_dropout: p must be in the range [0, 1], but p = " + str(p))
    if not training or p == 0:
        return x
    if p == 1:
        return x * 0
    draws = torch.rand(x.numel(), generator=generator, device=x.device, dtype=x.dtype).view(x.shape)
    keep = torch.heaviside(draws - p, torch.ones((), dtype=x.dtype, device=x.device))  # 1 where draw >= p
    return x * keep * (1.0 / (1.0 - p))
