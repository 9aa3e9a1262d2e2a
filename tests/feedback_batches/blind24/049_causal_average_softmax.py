import torch


def causal_average_softmax(x):
    T = x.shape[1]
    lower = torch.ones(T, T, dtype=x.dtype, device=x.device).tril()
    # -1/1 = -1 on the visible positions, -1/0 = -inf on the hidden ones
    scores = -lower.reciprocal()
    return torch.softmax(scores, dim=-1) @ x
