def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, T, d_out = x.shape
    assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
    return x.view(b, num_heads, T, d_out // num_heads)
