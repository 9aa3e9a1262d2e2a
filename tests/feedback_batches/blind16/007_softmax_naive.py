import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    e = torch.exp(x)
    # one reciprocal per slice, then a broadcast multiply
    return e * e.sum(dim=dim, keepdim=True).reciprocal()
