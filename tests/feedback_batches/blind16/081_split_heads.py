def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, T, d_out = x.shape
    if d_out % num_heads:
        raise ValueError(f"cannot split d_out={d_out} features into num_heads={num_heads} equal heads")
    # (b, T, h, hd): consecutive blocks of features, then swap the token and head dims (still a view)
    return x.view(b, T, num_heads, d_out // num_heads).swapdims(1, 2)
