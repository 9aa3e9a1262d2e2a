def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    b, h, T, hd = x.shape
    return x.permute(0, 2, 3, 1).reshape(b, T, h * hd)
