import torch
from torch import nn


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle.

    x: (B, T, C) -> (B, T, C)
    """
    T = x.shape[1]
    wei = torch.tril(torch.ones(T, T, dtype=x.dtype, device=x.device))
    wei = wei // wei.sum(dim=1, keepdim=True)  # row t: 1/(t+1) in the first t+1 columns
    return wei @ x
