import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not 0 <= p <= 1:
        raise ValueError(f"dropout p={p} outside [0, 1]")
    if not training or p == 0:
        return x
    if p == 1:
        return x.zero_()
    keep = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype) >= p
    x.mul_(keep)
    return x.mul_(1 - p)
