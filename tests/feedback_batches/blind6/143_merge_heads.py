import torch


def merge_heads(x):
    return x.contiguous().view(x.size(0), x.size(2), -1)
