def split_heads(x, num_heads):
    *lead, d_out = x.shape
    head_dim, leftover = divmod(d_out, num_heads)
    if leftover:
        raise ValueError(f"cannot split d_out={d_out} into num_heads={num_heads} equal heads")
    # (b, T, d_out) -> (b, T, h, hd) -> (b, h, T, hd); swapaxes is transpose under NumPy's name
    return x.view(*lead, num_heads, head_dim).swapaxes(1, 2)
