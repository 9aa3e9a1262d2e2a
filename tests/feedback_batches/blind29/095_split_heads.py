def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError("d_out must be divisible by num_heads")
    head_dim = d_out // num_heads
    return x.view(b, num_heads, T, head_dim)
