def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if d_out % num_heads:
        raise ValueError(f"split_heads: {d_out} features cannot be cut into {num_heads} equal heads")
    head_dim = d_out // num_heads
    return x.view(b, T, num_heads, head_dim).permute(0, 2, 1, 3)
