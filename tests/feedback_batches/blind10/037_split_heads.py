import torch


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first.
    x: (b, T, d_out) -> (b, num_heads, T, d_out // num_heads), a view of x
    raises ValueError when d_out is not divisible by num_heads
    """
    d_out = x.shape[-1]
    if d_out % num_heads != 0:
        raise ValueError(
            f"d_out ({d_out}) must be divisible by num_heads ({num_heads})"
        )
    # (b, T, d_out) -> (b, T, h, hd) -> (b, h, T, hd); both steps only change strides
    return x.unflatten(-1, (num_heads, d_out // num_heads)).transpose(1, 2)
