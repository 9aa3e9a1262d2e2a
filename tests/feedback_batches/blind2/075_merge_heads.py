import torch


def merge_heads(x):
    """Put the heads side by side in the feature dimension."""
    b, T, h, hd = x.shape
    return x.transpose(1, 2).contiguous().view(b, T, h * hd)
