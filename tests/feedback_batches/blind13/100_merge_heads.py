import torch


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    # (b, h, T, hd) -> (b, T, h, hd) -> (b, T, h * hd); flatten copies only when it has to
    return torch.flatten(x.swapdims(1, 2), start_dim=2)
