import torch


def softmax_stable(x, dim=-1):
    x -= x.max()
    e = torch.exp(x)
    return (e / e.sum(dim=dim, keepdim=True)).float()
