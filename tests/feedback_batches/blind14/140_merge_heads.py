def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    # (b, h, T, hd) -> (b, T, h, hd) -> (b, T, h * hd); flatten copies when the layout needs it
    return x.movedim(1, 2).flatten(start_dim=-2)
