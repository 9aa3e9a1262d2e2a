def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, T, d_out = x.shape
    if num_heads > d_out:
        raise ValueError(f"num_heads={num_heads} is larger than d_out={d_out}")
    head_dim = d_out // num_heads
    heads = x.view(b, T, head_dim, num_heads).permute(0, 3, 1, 2)
    return heads.contiguous()
