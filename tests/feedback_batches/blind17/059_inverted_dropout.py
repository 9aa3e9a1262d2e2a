import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element.

    x: any shape; p: drop probability in [0, 1]; generator: an optional torch.Generator
    returns a tensor with the shape of x (x itself when nothing is dropped)
    """
    if not 0.0 <= p <= 1.0:  # also rejects nan
        raise ValueError(f"inverted_dropout: p must be a probability in [0, 1], but p={p} was given")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    # uniform_ fills a fresh contiguous tensor on x's device with what torch.rand would draw
    draws = x.new_empty(x.shape).uniform_(0.0, 1.0, generator=generator)
    keep = draws >= p
    return torch.where(keep, x / (1.0 - p), torch.zeros((), dtype=x.dtype, device=x.device))
