import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses.
    x: (B, T, C) -> (B, T, C)
    """
    T = x.shape[-2]
    scores = torch.zeros(T, T, dtype=x.dtype, device=x.device)   # every visible position: same score
    future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
    scores = scores.masked_fill(future, float("-inf"))           # exp(-inf) = 0 exactly
    weights = scores.softmax(dim=-1)                              # row t: 1/(t+1) on 0..t
    return torch.matmul(weights, x)
