def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first.

    x: (b, T, d_out) -> (b, num_heads, T, d_out // num_heads), a view of x
    raises ValueError when d_out is not divisible by num_heads
    """
    *lead, d_out = x.shape
    head_dim, rest = divmod(d_out, num_heads)
    if rest:
        raise ValueError(f"split_heads: d_out={d_out} features do not split into num_heads={num_heads} equal heads")
    grouped = x.view(*lead, num_heads, head_dim)  # (b, T, h, hd): consecutive groups of features
    return grouped.swapaxes(-3, -2)  # (b, h, T, hd), still a view
