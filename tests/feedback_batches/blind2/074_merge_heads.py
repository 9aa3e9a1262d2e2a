import torch


def merge_heads(x):
    """Undo split_heads: (b, h, T, hd) -> (b, T, h * hd)."""
    b, h, T, hd = x.shape
    return x.reshape(b, T, h * hd)
