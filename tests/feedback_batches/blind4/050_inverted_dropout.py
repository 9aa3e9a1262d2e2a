import torch
from torch import nn


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p; scale the survivors by 1 / (1 - p).

    x: any shape; p: drop probability in [0, 1]; generator: an optional torch.Generator
    returns a tensor with the shape of x (x itself when nothing is dropped)
    """
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability must lie in [0, 1]; got p = {p!r}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    uniform = torch.rand(x.shape, generator=generator, device=x.device)  # one draw per element
    survives = uniform >= p  # probability 1 - p
    return torch.where(survives, x / (1.0 - p), torch.zeros_like(x))
