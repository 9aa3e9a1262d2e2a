import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"expected 0 <= p <= 1, got p={p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return x.zero_()
    # one draw per feature, broadcast over the other dims
    draws = torch.rand(x.shape[-1:], generator=generator, device=x.device, dtype=x.dtype)
    x.mul_(draws >= p).div_(1.0 - p)
    return x
