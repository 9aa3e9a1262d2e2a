import torch
from torch import nn


def merge_heads(x):
    """Undo split_heads: put the heads side by side in the feature dimension.

    x: (b, h, T, hd) -> (b, T, h * hd)
    """
    # bring the heads back together into one vector per token
    return x.sum(dim=1)
