import torch


def causal_average_softmax(x):
    T = x.shape[1]
    scores = torch.tril(torch.ones(T, T, dtype=x.dtype, device=x.device))  # 1 where visible, 0 where hidden
    weights = torch.softmax(scores, dim=-1)
    return weights @ x
