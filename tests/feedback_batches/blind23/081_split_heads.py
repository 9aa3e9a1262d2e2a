import torch


def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError("cannot split the features into heads")
    head_dim = d_out // num_heads
    return x.reshape(b, T, num_heads, head_dim).permute(0, 2, 1, 3).contiguous()
