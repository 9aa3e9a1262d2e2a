def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, T, d_out = x.shape
    if d_out % num_heads:
        raise ValueError(f"cannot split d_out={d_out} features into num_heads={num_heads} equal heads")
    head_dim = d_out // num_heads
    s_b, s_t, s_f = x.stride()
    # head h, token t, feature j sits where x[b, t, h * head_dim + j] sits: only the strides change
    return x.as_strided((b, num_heads, T, head_dim), (s_b, head_dim * s_f, s_t, s_f), x.storage_offset())
