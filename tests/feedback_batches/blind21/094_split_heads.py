def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, T, d_out = x.shape
    if d_out % num_heads:
        raise ValueError("d_out must be divisible by num_heads")
    head_dim = d_out // num_heads
    return x.reshape(b, T, num_heads, head_dim).transpose(1, 2).contiguous()
