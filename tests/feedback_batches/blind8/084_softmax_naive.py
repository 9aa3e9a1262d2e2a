import torch


def softmax_naive(x, dim=-1):
    exps = x.exp()
    return exps / exps.sum()
