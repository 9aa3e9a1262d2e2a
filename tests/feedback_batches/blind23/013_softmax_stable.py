import torch


def softmax_stable(x, dim=-1):
    x -= x.max(dim=dim, keepdim=True).values
    e = torch.exp(x)
    return e / e.sum(dim=dim)
