import torch


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    # put the heads side by side along the features
    return torch.cat(list(x), dim=-1)
