def split_heads(x, num_heads):
    b, T, d = x.shape
    assert d % num_heads == 0, f"d_out={d} not divisible by num_heads={num_heads}"
    hd = d // num_heads
    heads = x.reshape(b, T, num_heads, hd).permute(0, 2, 3, 1)
    return heads.contiguous()
