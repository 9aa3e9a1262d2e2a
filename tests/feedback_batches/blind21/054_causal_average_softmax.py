import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), diagonal=1)
    scores = torch.ones(T, T, dtype=x.dtype, device=x.device).masked_fill(future, 0.0)
    return torch.softmax(scores, dim=-1) @ x
