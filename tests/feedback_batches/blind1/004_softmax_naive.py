import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    exp_x = torch.exp(x)
    return exp_x / torch.sum(exp_x)
