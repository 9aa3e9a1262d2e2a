import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"inverted_dropout: p={p!r} is not a probability (allowed: 0 <= p <= 1)")
    if training and p > 0:
        if p == 1:
            return torch.zeros_like(x)
        keep = x.new_empty(x.shape).bernoulli_(1 - p, generator=generator)
        return x * keep * (1 / (1 - p))
    return x
