import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    numerators = torch.exp(x)
    # reduce along dim, then put the reduced axis back so the division broadcasts
    denominator = numerators.sum(dim).unsqueeze(dim)
    return numerators * denominator.reciprocal()
