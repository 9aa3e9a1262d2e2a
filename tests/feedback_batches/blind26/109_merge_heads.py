def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    return x.transpose(1, 2).flatten(1)
