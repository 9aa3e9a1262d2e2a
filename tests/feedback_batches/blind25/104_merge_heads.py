def merge_heads(x):
    b, T, h, hd = x.shape
    return x.contiguous().view(b, T, h * hd)
