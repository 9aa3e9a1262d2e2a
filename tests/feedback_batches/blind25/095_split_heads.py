def split_heads(x, num_heads):
    b, T, d_out = x.shape
    head_dim, leftover = divmod(d_out, num_heads)
    if leftover:
        raise ValueError(f"cannot split d_out={d_out} into num_heads={num_heads} heads of equal size")
    s_b, s_t, s_f = x.stride()
    # head h starts head_dim features further along each token: new strides over the same memory
    return x.as_strided((b, num_heads, T, head_dim), (s_b, head_dim * s_f, s_t, s_f), x.storage_offset())
