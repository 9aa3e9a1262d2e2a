import torch
from torch import nn


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension.

    x: (b, h, T, hd) -> (b, T, h * hd)
    """
    # (b, T, h, hd) then join the last two dimensions; flatten copies when the layout requires it
    return x.transpose(1, 2).flatten(start_dim=2)
