import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not (0 <= p <= 1):
        raise ValueError(f"p must be a probability in [0, 1]; got p={p!r}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    return torch.where(keep, x / (1 - p), torch.zeros_like(x))
