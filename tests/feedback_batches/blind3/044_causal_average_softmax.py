import torch


def causal_average_softmax(x):
    """Prefix mean via masked_fill(-inf) + softmax, the form attention uses.

    x: (B, T, C) -> (B, T, C)
    """
    T = x.shape[-2]
    scores = torch.zeros(T, T, dtype=x.dtype, device=x.device)
    future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(diagonal=1)
    scores = torch.where(future, float("-inf"), scores)  # -inf above the diagonal
    return torch.softmax(scores, dim=-1) @ x
