import torch


def softmax_stable(x, dim=-1):
    e = torch.exp(x - x.max())
    return (e / e.sum(dim=dim, keepdim=True)).float()
