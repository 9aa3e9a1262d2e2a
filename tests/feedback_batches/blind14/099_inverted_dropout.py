import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p={p} is not a probability: it must lie in [0, 1]")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    # one coin per element: 1 (keep) with probability 1 - p
    keep = torch.bernoulli(torch.full_like(x, 1.0 - p), generator=generator)
    return x * keep * (1.0 / (1.0 - p))
