import torch


def merge_heads(x):
    b, h, T, hd = x.shape
    return x.permute(0, 2, 3, 1).view(b, T, -1)
