def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, T, d_out = x.shape
    if d_out % num_heads:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    x.unsqueeze_(2)  # (b, T, 1, d_out)
    return x.view(b, T, num_heads, d_out // num_heads).transpose(1, 2)
