import torch


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first.
    x: (b, T, d_out) -> (b, num_heads, T, d_out // num_heads), a view of x
    raises ValueError when d_out is not divisible by num_heads
    """
    b, num_tokens, d_out = x.shape
    if d_out % num_heads:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    head_dim = d_out // num_heads
    return x.view(b, num_heads, num_tokens, head_dim)
