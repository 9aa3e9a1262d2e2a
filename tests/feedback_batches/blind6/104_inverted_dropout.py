import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 < p < 1:
        raise ValueError(f"p must be strictly between 0 and 1, got {p}")
    if not training:
        return x
    keep = torch.bernoulli(torch.full_like(x, p), generator=generator)
    return x * keep / (1 - p)
