def split_heads(x, num_heads):
    d_out = x.shape[-1]
    if d_out % num_heads != 0:
        raise ValueError(f"{d_out} features do not split into {num_heads} heads")
    return x.unflatten(-1, (num_heads, d_out // num_heads)).transpose(1, 2)
