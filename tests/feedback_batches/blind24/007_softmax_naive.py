import torch


def softmax_naive(x, dim=-1):
    numerators = torch.exp(x)
    denominators = numerators.sum(dim=dim).unsqueeze(dim)  # put the summed dim back
    return numerators / denominators.expand_as(numerators)
