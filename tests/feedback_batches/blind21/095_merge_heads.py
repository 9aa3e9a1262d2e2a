import torch


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension."""
    # (b, h, T, hd) -> h tensors (b, 1, T, hd) -> joined along the features -> (b, 1, T, h*hd)
    side_by_side = torch.cat(torch.split(x, 1, dim=1), dim=-1)
    return side_by_side.squeeze(1)
