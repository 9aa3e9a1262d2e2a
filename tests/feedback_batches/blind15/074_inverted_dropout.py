import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not 0 <= p <= 1:
        raise ValueError(f"p={p} is outside [0, 1]")
    if not training or p == 0:
        return x
    mask = (torch.rand(x.shape) > p).to(x.dtype)
    return x * mask / (1 - p)
