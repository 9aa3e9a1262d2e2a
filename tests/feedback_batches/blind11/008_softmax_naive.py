import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    e = torch.exp(x)
    return e.div(e.sum(dim).unsqueeze(dim))  # put the reduced axis back before dividing
