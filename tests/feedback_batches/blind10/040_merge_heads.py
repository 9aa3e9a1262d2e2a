import torch


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension.
    x: (b, h, T, hd) -> (b, T, h * hd)
    """
    b, h, T, hd = x.shape
    x = x.transpose(1, 2)
    return x.view(b, T, h * hd)
