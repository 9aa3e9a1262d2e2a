import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    numerator = x.exp()
    denominator = numerator.sum(-1, keepdim=True)
    return numerator / denominator
