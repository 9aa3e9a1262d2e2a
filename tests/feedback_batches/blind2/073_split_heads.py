import torch


def split_heads(x, num_heads):
    """(b, T, d_out) -> (b, num_heads, T, head_dim), a view of x."""
    d_out = x.shape[-1]
    head_dim, remainder = divmod(d_out, num_heads)
    if remainder:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    return x.view(*x.shape[:-1], num_heads, head_dim).transpose(-3, -2)
