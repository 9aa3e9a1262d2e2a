import torch


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    # (b, h, T, hd) -> (b, T, h, hd); flatten copies only when the layout needs it
    return torch.movedim(x, 1, 2).flatten(start_dim=2)
