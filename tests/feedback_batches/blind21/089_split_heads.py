def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    d_out = x.shape[-1]
    if d_out % num_heads != 0:
        raise ValueError(f"cannot split d_out={d_out} features into num_heads={num_heads} equal heads")
    head_dim = d_out // num_heads
    # unfold cuts the last dim into windows of head_dim with step head_dim: (b, T, h, hd), a view
    return x.unfold(-1, head_dim, head_dim).transpose(1, 2)
