def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, T, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError(f"{d_out} features cannot be split into {num_heads} heads")
    return x.view(b, T, num_heads, 4).transpose(1, 2)
