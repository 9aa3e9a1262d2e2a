def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if T % num_heads != 0:
        raise ValueError(f"cannot split {T} into {num_heads} heads")
    head_dim = d_out // num_heads
    return x.reshape(b, T, num_heads, head_dim).transpose(1, 2)
