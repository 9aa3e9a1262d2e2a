import torch


def merge_heads(x):
    b, T, h, hd = x.shape
    return x.transpose(1, 2).contiguous().view(b, T, h * hd)
