import torch


def inverted_dropout(x, p, training=True, generator=None):
    if p > 1:
        raise ValueError(f"p={p} must be at most 1")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = (torch.rand(x.shape[-1], generator=generator, device=x.device) >= p).float()
    return (x * keep / (1 - p)).float()
