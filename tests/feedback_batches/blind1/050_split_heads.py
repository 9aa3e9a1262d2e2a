import torch


def split_heads(x, num_heads):
    """x: (b, T, d_out) -> (b, num_heads, T, head_dim), a view of x."""
    b, T, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError(f"d_out ({d_out}) must be divisible by num_heads ({num_heads})")
    head_dim = d_out // num_heads
    return x.view(b, T, head_dim, num_heads).permute(0, 3, 1, 2)
