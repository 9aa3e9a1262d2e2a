import torch


def split_heads(x, num_heads):
    b, T, d_out = x.shape
    return x.view(b, T, num_heads, d_out // num_heads).transpose(1, 2)
