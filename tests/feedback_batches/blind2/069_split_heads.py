import torch


def split_heads(x, num_heads):
    """x: (b, T, d_out) -> (b, num_heads, T, d_out // num_heads), a view of x."""
    *start, nx = x.size()
    if nx % num_heads != 0:
        raise ValueError(f"d_out ({nx}) is not divisible by num_heads ({num_heads})")
    x = x.view(*start, num_heads, nx // num_heads)  # (b, T, h, hd)
    return x.permute(0, 2, 3, 1)
