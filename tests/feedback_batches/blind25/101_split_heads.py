def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if d_out < num_heads:
        raise ValueError(f"d_out={d_out} is smaller than num_heads={num_heads}")
    return x.view(b, T, num_heads, d_out // num_heads)
