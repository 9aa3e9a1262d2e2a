def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    return x.transpose(1, 2).flatten(start_dim=2)     # flatten copies when it must
