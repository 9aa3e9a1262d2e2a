def split_heads(x, num_heads):
    b, T, d_out = x.shape
    assert x.size(1) % num_heads == 0, "cannot split into heads"
    return x.view(b, T, num_heads, d_out // num_heads).transpose(1, 2)
