def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, num_tokens, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError(f"cannot split d_out={d_out} features into num_heads={num_heads} equal heads")
    head_dim = d_out // num_heads
    batch_step, token_step, feature_step = x.stride()
    # same storage, read another way: head h starts h * head_dim features along every token
    return x.as_strided((b, num_heads, num_tokens, head_dim),
                        (batch_step, head_dim * feature_step, token_step, feature_step),
                        x.storage_offset())
