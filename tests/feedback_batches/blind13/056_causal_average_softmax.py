import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[1]
    scores = torch.tril(torch.ones(T, T, dtype=x.dtype, device=x.device))  # 1 = visible, 0 = hidden
    weights = torch.softmax(scores, dim=-1)
    return weights @ x
