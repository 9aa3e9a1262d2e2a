import torch


def softmax_stable(x, dim=-1):
    shifted = x - x.min(dim=dim, keepdim=True).values
    e = shifted.exp()
    return e / e.sum()
