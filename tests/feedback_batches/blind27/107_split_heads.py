def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, T, d_out = x.shape
    if d_out % num_heads != 0:
        raise TypeError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    return x.view(b, T, num_heads, -1).transpose(-1, -2)
