import torch
from torch import nn


def merge_heads(x):
    # (b, h, T, hd) -> (b, T, h, hd), then join the last two dims
    return nn.Flatten(start_dim=2)(x.transpose(1, 2))
