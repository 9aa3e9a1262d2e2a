import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    x = x.float()
    e = torch.exp(x)
    # divide every row by its total; transpose so that the totals line up with the rows
    return (e.T / e.sum(dim=dim)).T
