def split_heads(x, num_heads):
    *lead, d_out = x.shape
    head_dim, rest = divmod(d_out, num_heads)
    if rest:
        raise ValueError(f"cannot split d_out={d_out} features into num_heads={num_heads} heads "
                         f"({d_out} % {num_heads} = {rest})")
    return x.view(*lead, num_heads, head_dim).permute(0, 2, 1, 3)
