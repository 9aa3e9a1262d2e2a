import torch


def merge_heads(x):
    """(b, h, T, hd) -> (b, T, h * hd); flatten copies when the layout needs it."""
    return x.transpose(1, 2).flatten(start_dim=2)
