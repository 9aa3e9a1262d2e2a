def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if num_heads % d_out != 0:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    return x.view(b, T, num_heads, -1).transpose(2, 3)
