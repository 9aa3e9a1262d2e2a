import torch


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    # (b, h, T, hd) -> (b, T, h, hd) -> (b, T, h * hd)
    return x.movedim(1, -2).flatten(-2)
