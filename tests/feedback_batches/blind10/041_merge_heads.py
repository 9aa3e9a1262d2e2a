import torch


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension.
    x: (b, h, T, hd) -> (b, T, h * hd)
    """
    b, h, T, hd = x.shape
    # tokens first, then every feature of every head
    out = x.permute(0, 2, 3, 1)  # (b, T, hd, h)
    return out.reshape(b, T, h * hd)
