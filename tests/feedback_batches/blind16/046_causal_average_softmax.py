import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[1]
    hide = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device))
    scores = torch.zeros(T, T, dtype=x.dtype, device=x.device).masked_fill(hide, float("-inf"))
    weights = torch.softmax(scores, dim=0)
    return weights @ x
