import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if p < 0 or p > 1:
        raise ValueError(f"p={p} is outside [0, 1]")
    if not training or p == 0:
        return x
    keep = torch.rand(x.shape, device=x.device, dtype=x.dtype) >= p
    return x * keep / (1 - p)
