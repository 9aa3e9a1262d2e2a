def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension.

    x: (b, h, T, hd) -> (b, T, h * hd)
    """
    b, T, h, hd = x.shape
    return x.permute(0, 2, 3, 1).reshape(b, T, h * hd)
