import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    e = x.exp()
    return e * e.sum(dim=dim, keepdim=True).reciprocal()
