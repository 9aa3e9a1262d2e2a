import torch


def causal_average_softmax(x):
    T = x.shape[1]
    index = torch.arange(T, device=x.device)
    future = index.unsqueeze(0) > index.unsqueeze(1)
    zeros = torch.zeros(T, T, dtype=x.dtype, device=x.device)
    scores = torch.where(future, torch.tensor(-torch.inf, dtype=x.dtype, device=x.device), zeros)
    return torch.matmul(scores.softmax(dim=1), x)
