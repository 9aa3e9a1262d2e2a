def merge_heads(x):
    b, T, h, hd = x.shape
    swapped = x.transpose(1, 2)
    return swapped.view(b, T, h * hd)
