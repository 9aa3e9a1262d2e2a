import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p must lie in [0, 1], got p={p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    # one keep/drop draw per feature
    keep = torch.rand(x.shape[-1], generator=generator, dtype=x.dtype, device=x.device) >= p
    return x * keep / (1 - p)
