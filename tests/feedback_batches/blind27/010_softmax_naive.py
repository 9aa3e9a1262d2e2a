import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    exps = torch.exp(x - x.max())  # guard against overflow
    return exps / exps.sum(dim)
