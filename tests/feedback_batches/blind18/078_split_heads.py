def split_heads(x, num_heads):
    """Cut the features into num_heads groups and put the head dimension first."""
    b, num_tokens, d_out = x.shape
    head_dim, leftover = divmod(d_out, num_heads)
    if leftover:
        raise ValueError(
            f"cannot split d_out={d_out} features into num_heads={num_heads} heads ({d_out} % {num_heads} = {leftover})"
        )
    return x.view(b, num_tokens, num_heads, head_dim).swapaxes(1, 2)  # (b, h, T, hd), still a view
