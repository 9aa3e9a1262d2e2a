import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not 0 <= p <= 1:
        raise ValueError(f"p must lie in [0, 1], got {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return x.zero_()
    keep = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device) >= p
    return x.mul_(keep).div_(1 - p)
