def split_heads(x, num_heads):
    b, T, d_out = x.shape
    assert d_out % num_heads == 0, f"d_out={d_out} must be divisible by num_heads={num_heads}"
    head_dim = d_out // num_heads
    return x.reshape(b, T, num_heads, head_dim).permute(0, 2, 1, 3).contiguous()
