import torch


def merge_heads(x):
    b, h, T, hd = x.shape
    return x.view(b, T, h * hd)
