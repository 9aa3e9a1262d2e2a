def split_heads(x, num_heads):
    d_out = x.shape[-1]
    if d_out % num_heads:
        raise ValueError(f"d_out ({d_out}) must be divisible by num_heads ({num_heads})")
    return x.view(*x.shape[:-1], num_heads, d_out // num_heads).swapaxes(1, 2)
