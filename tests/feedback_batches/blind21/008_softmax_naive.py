import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    e = x.exp_()
    total = e.sum(dim=dim)
    return e / total.unsqueeze(-1)
