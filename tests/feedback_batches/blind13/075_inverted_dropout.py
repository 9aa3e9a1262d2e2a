import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability must be in [0, 1], got {p}")
    if not training:
        return x * (1 - p)  # inference: scale down instead of dropping
    if p == 1.0:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype) >= p
    return x * keep / (1 - p)
