import torch


def split_heads(x, num_heads):
    *lead, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError(f"d_out ({d_out}) is not divisible by num_heads ({num_heads})")
    return x.view(*lead, num_heads, -1).transpose(-3, -2)  # (b, T, h, hd) -> (b, h, T, hd)
