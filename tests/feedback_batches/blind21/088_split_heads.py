def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    *leading, d_out = x.shape
    head_dim, leftover = divmod(d_out, num_heads)
    if leftover:
        raise ValueError(f"d_out ({d_out}) is not a multiple of num_heads ({num_heads})")
    # (b, T, d_out) -> (b, T, h, hd) -> (b, h, T, hd), counting the dims from the end
    return x.view(*leading, num_heads, head_dim).transpose(-3, -2)
