import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not (0 <= p <= 1):
        raise ValueError(f"p must be a probability in [0, 1], got p={p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    u = torch.empty_like(x).uniform_(generator=generator)  # same dtype and device as x
    return torch.where(u < p, torch.zeros_like(x), x / (1 - p))
