def split_heads(x, num_heads):
    b, T, d = x.shape
    assert d % num_heads == 0, f"d_out={d} must be divisible by num_heads={num_heads}"
    return x.reshape(b, T, num_heads, d // num_heads).transpose(1, 2).contiguous()
