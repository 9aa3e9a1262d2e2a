import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p must be in [0, 1], got {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    dropped = torch.rand(x.shape, generator=generator, device=x.device) < p
    return torch.where(dropped, x / (1 - p), torch.zeros_like(x))
