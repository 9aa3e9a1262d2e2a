def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    b, h, T, hd = x.shape
    return x.transpose(1, 2).view(b, T, h * hd)
