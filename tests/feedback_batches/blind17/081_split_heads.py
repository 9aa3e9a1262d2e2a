def split_heads(x, num_heads):
    b, T, _ = x.shape
    return x.view(b, T, num_heads, -1).transpose(1, 2)
