import torch
from torch import nn


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension.

    x: (b, h, T, hd) -> (b, T, h * hd)
    """
    b, h, T, hd = x.shape
    return x.contiguous().transpose(1, 2).view(b, T, h * hd)
