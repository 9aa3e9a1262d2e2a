def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if d_out % num_heads != 0:
        raise ValueError(f"d_out={d_out} must be a multiple of num_heads={num_heads}")
    return x.view(b, T, -1, num_heads).transpose(1, 2)
