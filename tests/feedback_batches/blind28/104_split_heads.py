def split_heads(x, num_heads):
    b, T, d_out = x.shape
    head_dim = x.shape[1] // num_heads
    return x.view(b, T, num_heads, head_dim).transpose(1, 2).contiguous()
