import torch


def split_heads(x, num_heads):
    b, num_tokens, d_out = x.shape
    assert d_out % num_heads == 0, f"d_out ({d_out}) must be divisible by num_heads ({num_heads})"
    head_dim = d_out // num_heads
    x = x.view(b, num_tokens, num_heads, head_dim)
    return x.transpose(1, 2)
