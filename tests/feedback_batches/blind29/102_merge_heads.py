def merge_heads(x):
    b, h, T, hd = x.shape
    return x.reshape(b, T, h * hd).squeeze(0)
