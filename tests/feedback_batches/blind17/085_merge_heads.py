def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension.

    x: (b, h, T, hd) -> (b, T, h * hd)
    """
    # heads next to the features again, then join (head, feature) into one dim; flatten copies only if it must
    return x.transpose(-3, -2).flatten(start_dim=-2)
