def merge_heads(x):
    b, h, T, hd = x.shape
    y = x.permute(0, 2, 3, 1)          # (b, T, hd, h)
    return y.view(b, T, h * hd)
