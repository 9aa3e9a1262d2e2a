import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`, straight from the formula."""
    numerators = torch.exp(x)
    denominators = torch.sum(numerators, dim=dim).unsqueeze(dim)  # put the reduced dim back
    return numerators / denominators
