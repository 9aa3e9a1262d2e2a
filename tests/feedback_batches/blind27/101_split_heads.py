def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first.

    x: (b, T, d_out) -> (b, num_heads, T, d_out // num_heads), a view of x
    raises ValueError when d_out is not divisible by num_heads
    """
    b, num_tokens, d_out = x.shape
    head_dim, leftover = divmod(d_out, num_heads)
    if leftover:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    # (b, T, h, hd), then the head axis moves in front of the tokens: (b, h, T, hd)
    return x.view(b, num_tokens, num_heads, head_dim).movedim(2, 1)
