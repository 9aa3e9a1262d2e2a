import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not (0.0 <= p <= 1.0):  # written this way round it also rejects nan
        raise ValueError(f"inverted_dropout: p={p!r} is not a probability; p must lie in [0, 1]")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device).ge_(p)
    return x.mul(keep).div_(1.0 - p)  # the product is new, so scaling it in place is safe
