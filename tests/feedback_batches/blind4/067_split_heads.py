import torch
from torch import nn


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first.

    x: (b, T, d_out) -> (b, num_heads, T, d_out // num_heads), a view of x
    raises ValueError when d_out is not divisible by num_heads
    """
    d_out = x.shape[-1]
    if d_out % num_heads:
        raise ValueError(
            f"cannot split d_out={d_out} features into num_heads={num_heads} equal heads: "
            f"{d_out} is not divisible by {num_heads}"
        )
    # unflatten cuts the last dimension into (num_heads, head_dim) without copying
    return x.unflatten(-1, (num_heads, d_out // num_heads)).transpose(1, 2)
