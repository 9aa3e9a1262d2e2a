import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise TypeError(f"p must be between 0 and 1, got {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) >= p
    out = torch.zeros(x.shape)
    out[keep] = x[keep] / (1 - p)
    return out
