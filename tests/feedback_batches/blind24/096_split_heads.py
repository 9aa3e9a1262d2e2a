def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if num_heads > d_out:
        raise ValueError(f"num_heads={num_heads} is larger than d_out={d_out}")
    head_dim = d_out // num_heads
    return x.view(1, T, num_heads, head_dim).transpose(0, 2)
