def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, num_tokens, d_out = x.shape
    if num_heads % d_out != 0:
        raise ValueError("cannot split the features into heads")
    head_dim = d_out // num_heads
    return x.view(b, num_tokens, head_dim, num_heads).permute(0, 3, 1, 2)
