import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p < 1:
        raise ValueError(f"p={p}: dropout needs 0 <= p < 1")
    if p == 0:
        return x
    keep = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device) >= p
    return x * keep / (1 - p)
