import torch


def split_heads(x, num_heads):
    if not isinstance(num_heads, int) or num_heads <= 0:
        raise ValueError(f"num_heads must be a positive int, got {num_heads!r}")
    b, T, d_out = x.shape
    head_dim = d_out // num_heads
    if head_dim * num_heads != d_out:
        raise ValueError(f"d_out ({d_out}) is not divisible by num_heads ({num_heads})")
    grouped = x.reshape(b, T, num_heads, head_dim)  # a view: x's features are contiguous per token
    return grouped.permute(0, 2, 1, 3)
