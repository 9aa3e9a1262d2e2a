import torch


def softmax_stable(x, dim=-1):
    x -= x.max(dim=dim, keepdim=True).values
    return torch.exp(x) / torch.exp(x).sum(-1, keepdim=True)
