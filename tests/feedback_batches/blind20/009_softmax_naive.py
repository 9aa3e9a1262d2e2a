import torch


def softmax_naive(x, dim=-1):
    exps = torch.exp(x - x.max(dim=dim, keepdim=True).values)
    return exps / exps.sum(dim=dim, keepdim=True)
