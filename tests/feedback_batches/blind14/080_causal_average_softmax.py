import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[1]
    lower = torch.tril(torch.ones(T, T, device=x.device))
    scores = torch.zeros(T, T, dtype=x.dtype, device=x.device)
    scores = scores.masked_fill(lower == 1, float("-inf"))
    weights = torch.softmax(scores, dim=0)
    return weights @ x
