import torch


def causal_average_softmax(x):
    T = x.shape[1]
    scores = torch.zeros(T, T, dtype=x.dtype, device=x.device)
    scores = scores.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), diagonal=1), float("-inf"))
    weights = torch.softmax(scores, dim=0)
    return weights @ x
