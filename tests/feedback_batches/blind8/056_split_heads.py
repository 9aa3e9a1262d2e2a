import torch


def split_heads(x, num_heads):
    d_out = x.shape[-1]
    if d_out % num_heads:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    return x.unflatten(-1, (num_heads, d_out // num_heads)).transpose(1, 2)
