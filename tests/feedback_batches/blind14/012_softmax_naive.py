import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    return x / torch.sum(x, dim=dim, keepdim=True)  # normalise so it sums to 1
