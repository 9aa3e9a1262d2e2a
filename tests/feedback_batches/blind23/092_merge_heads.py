import torch


def merge_heads(x):
    b, h, T, hd = x.shape
    return x.permute(0, 2, 3, 1).reshape(b, T, h * hd)
