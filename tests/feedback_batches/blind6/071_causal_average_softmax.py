import torch
import torch.nn.functional as F


def causal_average_softmax(x):
    T = x.shape[1]
    scores = torch.zeros(T, T, dtype=x.dtype, device=x.device)
    future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(diagonal=1)
    scores = torch.where(future, float("-inf"), scores)
    return F.softmax(scores, dim=-1) @ x
