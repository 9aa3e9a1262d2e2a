import torch


def softmax_naive(x, dim=-1):
    e = x.exp_()  # no extra tensor for the exponentials
    return e / e.sum(dim=-1, keepdim=True)
