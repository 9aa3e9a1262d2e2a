def merge_heads(x):
    b, h, T, hd = x.shape
    return x.transpose(1, 2).view(b, T, h * T)
