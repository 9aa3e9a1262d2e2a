def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, num_tokens, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError(f"cannot split d_out={d_out} into num_heads={num_heads} equal heads")
    head_dim = d_out // num_heads
    s_b, s_t, s_f = x.stride()
    # head h starts head_dim features further along each token's row
    return x.as_strided((b, num_heads, num_tokens, head_dim), (s_b, head_dim * s_f, s_t, s_f), x.storage_offset())
