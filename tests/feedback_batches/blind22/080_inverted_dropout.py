import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError("dropout probability has to be between 0 and 1")
    if not training or p == 0:
        return x
    keep = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype) >= p
    return x * keep / (1 - p)
