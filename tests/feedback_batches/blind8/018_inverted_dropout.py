import torch


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1 or p != p:
        raise ValueError("p = %r is not a probability in [0, 1]" % (p,))
    if p == 0 or not training:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.bernoulli(torch.full_like(x, 1 - p), generator=generator)  # on x's device and dtype
    return x * keep / (1 - p)
