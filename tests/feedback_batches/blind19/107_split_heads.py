def split_heads(x, num_heads):
    b, T, d_out = x.shape
    return x.view(b, T, num_heads, -1)
