import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    e = torch.exp(x - x.max())  # keep the numbers small
    return e / e.sum(dim=dim)
