def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, num_tokens, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    head_dim = d_out / num_heads
    return x.view(b, num_tokens, num_heads, head_dim).transpose(1, 2).contiguous()
