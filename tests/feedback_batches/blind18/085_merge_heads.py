def merge_heads(x):
    b, h, T, hd = x.shape
    return x.contiguous().view(b, T, h * hd)
