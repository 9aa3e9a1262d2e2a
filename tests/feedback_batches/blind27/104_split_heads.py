def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first.

    x: (b, T, d_out) -> (b, num_heads, T, d_out // num_heads), a view of x
    raises ValueError when d_out is not divisible by num_heads
    """
    b, T, d_out = x.shape
    head_dim = d_out // num_heads
    return x.reshape(b, T, num_heads, head_dim).permute(0, 2, 1, 3).contiguous()
