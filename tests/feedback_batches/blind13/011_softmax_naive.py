import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    # exp(x) / sum(exp(x)), written as x - log(sum(exp(x)))
    return x - torch.log(torch.exp(x).sum(dim=dim, keepdim=True))
