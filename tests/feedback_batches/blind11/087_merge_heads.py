import torch


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    return x.permute(0, 2, 3, 1).flatten(start_dim=2)
