def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError("num_heads must divide the embedding size")
    head_dim = d_out // num_heads
    return x.view(b, T, head_dim, num_heads).permute(0, 3, 1, 2)
