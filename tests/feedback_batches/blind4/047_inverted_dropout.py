import torch
from torch import nn


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p; scale the survivors by 1 / (1 - p).

    x: any shape; p: drop probability in [0, 1]; generator: an optional torch.Generator
    returns a tensor with the shape of x (x itself when nothing is dropped)
    """
    if p < 0 or p > 1:
        raise ValueError(f"p must be between 0 and 1 (inclusive), got p={p}")
    if not training or p == 0:
        return x.clone()  # a fresh tensor, so the caller's x can never be changed through the result
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) >= p
    return x * keep / (1 - p)
