import torch
from torch import nn


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t].

    x: (B, T, C) -> (B, T, C)
    """
    B, T, C = x.shape
    out = torch.zeros_like(x)
    for b in range(B):
        for t in range(T):
            out[b, t] = x[b, : t + 1].mean()
    return out
