import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[1]
    scores = torch.zeros(T, T)
    scores[torch.triu(torch.ones(T, T), diagonal=1) == 1] = float("-inf")
    weights = torch.softmax(scores, dim=-1)
    return weights * x  # weight the tokens
