import torch


def causal_average_matmul(x):
    weights = torch.triu(torch.ones(8, 8))
    weights = weights / weights.sum(dim=1, keepdim=True)
    return weights @ x
