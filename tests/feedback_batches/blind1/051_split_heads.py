import torch


def split_heads(x, num_heads):
    """x: (b, T, d_out) -> (b, num_heads, T, d_out // num_heads), a view of x."""
    d_out = x.shape[-1]
    if d_out % num_heads:
        raise ValueError(f"split_heads: d_out = {d_out} cannot be split into num_heads = {num_heads} "
                         f"equal heads ({d_out} is not divisible by {num_heads})")
    return x.unflatten(-1, (num_heads, d_out // num_heads)).transpose(1, 2)
