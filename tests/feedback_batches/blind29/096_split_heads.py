def split_heads(x, num_heads):
    b, T, d_out = x.shape
    head_dim = d_out // num_heads
    return x.view(b, T, head_dim, num_heads).permute(0, 3, 1, 2)
