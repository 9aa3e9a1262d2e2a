import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    x.exp_()  # exponentiate in place, saves memory
    return x / x.sum(dim=dim)
