import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element.

    x: any shape; p: drop probability in [0, 1]; generator: an optional torch.Generator
    returns a tensor with the shape of x (x itself when nothing is dropped)
    """
    if p > 1:
        raise ValueError(f"p={p} is not a probability (it must be at most 1)")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    draws = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype)
    keep = draws < p
    return torch.where(keep, x / (1 - p), torch.zeros_like(x))
