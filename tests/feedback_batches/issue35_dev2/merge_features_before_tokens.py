def merge_heads(x):
    b, h, T, hd = x.shape
    return x.permute(0, 1, 3, 2).reshape(b, T, h * hd)
