import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not (0.0 <= p <= 1.0):
        raise ValueError("invalid dropout probability")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    draws = torch.rand(x.shape[-1], generator=generator, device=x.device, dtype=x.dtype)
    keep = draws >= p
    return x * keep / (1.0 - p)
