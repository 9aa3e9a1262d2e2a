import torch


def softmax_naive(x, dim=-1):
    # exp(x - logsumexp(x)) is exp(x) / sum(exp(x)), written in log space
    return torch.exp(x - torch.logsumexp(x, dim=dim, keepdim=True))
