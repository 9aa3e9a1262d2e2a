import torch
from torch import nn


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first.

    x: (b, T, d_out) -> (b, num_heads, T, d_out // num_heads), a view of x
    raises ValueError when d_out is not divisible by num_heads
    """
    T, d_out = x.shape[-2:]
    if d_out % num_heads != 0:
        raise ValueError(f"d_out ({d_out}) must be divisible by num_heads ({num_heads})")
    head_dim = d_out // num_heads
    heads = x.view(T, num_heads, head_dim).transpose(0, 1)  # (num_heads, T, head_dim)
    return heads.unsqueeze(0)  # add the batch dimension back
