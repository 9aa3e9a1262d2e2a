def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError(f"d_out ({d_out}) must be divisible by num_heads ({num_heads})")
    return x.view(b, num_heads, T, d_out // num_heads)
