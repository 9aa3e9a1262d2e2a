def merge_heads(x):
    b, h, hd, T = x.shape
    return x.transpose(1, 2).view(b, T, h * hd)
