def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    d_out = x.shape[-1]
    if d_out % num_heads:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    head_dim = d_out // num_heads
    return x.view(*x.shape[:-1], num_heads, head_dim).movedim(-2, 1)
