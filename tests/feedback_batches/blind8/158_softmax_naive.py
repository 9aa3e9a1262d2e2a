import torch


def softmax_naive(x, dim=-1):
    numerator = torch.exp(x)
    denominator = torch.sum(numerator, dim=dim, keepdim=True)
    return torch.div(numerator, denominator)
