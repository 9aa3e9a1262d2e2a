import torch


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension.
    x: (b, h, T, hd) -> (b, T, h * hd)
    """
    # (b, h, T, hd) -> (b, T, h, hd), then fuse the last two dims (copies when it must)
    return x.permute(0, 2, 1, 3).flatten(start_dim=2)
