import torch


def causal_average_softmax(x):
    T = x.shape[1]
    scores = torch.zeros(T, T)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    scores = scores.masked_fill(future, 0.0)
    return torch.softmax(scores, dim=-1) @ x
