def split_heads(x, num_heads):
    d_out = x.shape[-1]
    if d_out % num_heads:
        raise ValueError(f"cannot split d_out={d_out} features into num_heads={num_heads} equal heads")
    # (b, T, d_out) -> (b, T, h, hd) -> (b, h, T, hd); unflatten and permute only change the strides
    return x.unflatten(-1, (num_heads, d_out // num_heads)).permute(0, 2, 1, 3)
