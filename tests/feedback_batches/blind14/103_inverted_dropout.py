import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not 0 <= p <= 1:
        raise ValueError(f"p={p} must be in [0, 1]")
    if p == 0:
        return x
    u = torch.empty_like(x).uniform_(0, 1, generator=generator)
    return x * (u >= p) / (1 - p)
