import torch


def causal_average_softmax(x):
    """Prefix mean via masked_fill(-inf) + softmax, the form attention uses."""
    T = x.shape[1]
    tril = torch.tril(torch.ones(T, T))
    wei = torch.zeros((T, T))
    wei = wei.masked_fill(tril == 1, float("-inf"))
    wei = torch.softmax(wei, dim=-1)
    return wei @ x
