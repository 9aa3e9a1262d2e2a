import torch


def softmax_stable(x, dim=-1):
    centre = x.mean(dim=-1, keepdim=True)
    e = torch.exp(x - centre)
    return e / e.sum(dim=dim, keepdim=True)
