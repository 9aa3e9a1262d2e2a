import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    numerators = torch.exp(x)
    denominators = numerators.sum(dim=dim).unsqueeze(dim)  # put the summed-out dim back with size 1
    return numerators / denominators
