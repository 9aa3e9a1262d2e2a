import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not training:
        return x
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be between 0 and 1, got {p}")
    if p == 0.0:
        return x
    draws = torch.rand(x.shape[:-1] + (1,), generator=generator, device=x.device, dtype=x.dtype)
    return x * (draws >= p) / (1.0 - p)
