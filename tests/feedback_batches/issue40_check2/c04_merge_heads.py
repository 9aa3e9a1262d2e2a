def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    b, h, T, hd = x.shape
    x.transpose_(1, 2)  # (b, T, h, hd)
    return x.reshape(b, T, h * hd)
