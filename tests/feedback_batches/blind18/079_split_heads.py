def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if d_out % num_heads:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    # (b, T, head_dim, h): the heads as the fastest-changing index
    return x.view(b, T, d_out // num_heads, num_heads).permute(0, 3, 1, 2)
