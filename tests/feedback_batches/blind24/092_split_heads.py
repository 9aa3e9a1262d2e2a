def split_heads(x, num_heads):
    b, T, d_out = x.shape
    head_dim = d_out // num_heads
    return x.view(b, num_heads, T, head_dim)
