import torch


def split_heads(x, num_heads):
    b, T, d_out = x.shape
    head_dim = d_out // num_heads
    if head_dim == 0:
        raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
    return x.view(b, T, num_heads, head_dim).transpose(1, 2)
