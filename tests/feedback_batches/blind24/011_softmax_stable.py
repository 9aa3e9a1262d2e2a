import torch


def softmax_stable(x, dim=-1):
    x = x - x.mean(dim=dim, keepdim=True)
    e = torch.exp(x)
    return e / e.sum(dim=dim, keepdim=True)
