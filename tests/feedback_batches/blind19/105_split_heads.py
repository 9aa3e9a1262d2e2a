def split_heads(x, num_heads):
    b, T, d_out = x.shape
    head_dim, rest = divmod(d_out, num_heads)
    if rest:
        raise ValueError(f"d_out ({d_out}) is not divisible by num_heads ({num_heads})")
    s_b, s_t, s_f = x.stride()
    # element [b, h, t, k] is x[b, t, h * head_dim + k]: write the strides out by hand
    return x.as_strided((b, num_heads, T, head_dim), (s_b, head_dim * s_f, s_t, s_f), x.storage_offset())
