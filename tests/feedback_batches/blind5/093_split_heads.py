def split_heads(x, num_heads):
    b, T, d_out = x.shape
    if d_out % num_heads:
        raise ValueError("bad number of heads")
    head_dim = d_out // num_heads
    # (b, T, hd, h) -> (b, h, T, hd)
    return x.view(b, T, head_dim, num_heads).permute(0, 3, 1, 2)
