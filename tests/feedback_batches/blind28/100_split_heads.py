def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    if (rest := divmod(x.shape[-1], num_heads))[1] != 0:
        raise ValueError(f"cannot split {x.shape[-1]} features into {num_heads} heads of equal size")
    head_dim = rest[0]
    return x.unflatten(2, (num_heads, head_dim)).swapaxes(1, 2)  # (b, T, h, hd) -> (b, h, T, hd)
