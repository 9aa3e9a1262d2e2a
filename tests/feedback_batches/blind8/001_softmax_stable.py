import torch


def softmax_stable(x, dim=-1):
    shifted = x - x.max()  # global max
    e = shifted.exp()
    return e / e.sum(dim=dim, keepdim=True)
