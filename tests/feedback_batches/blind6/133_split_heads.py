import torch


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    d_out = x.shape[-1]
    if d_out % num_heads:
        raise ValueError(f"d_out={d_out} cannot be split evenly into num_heads={num_heads} heads")
    # (b, T, d_out) -> (b, T, h, hd) -> (b, h, T, hd); both steps are views
    return x.unflatten(-1, (num_heads, d_out // num_heads)).movedim(-2, 1)
