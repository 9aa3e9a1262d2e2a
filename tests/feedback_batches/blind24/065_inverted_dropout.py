import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p is a probability and must lie in [0, 1]; got p={p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    draws = torch.empty(x.shape, dtype=x.dtype, device=x.device).uniform_(0, 1, generator=generator)
    survivors = torch.where(draws < p, torch.zeros_like(x), x / (1 - p))
    return survivors
