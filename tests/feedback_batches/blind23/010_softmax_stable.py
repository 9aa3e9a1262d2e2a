import torch


def softmax_stable(x, dim=-1):
    shifted = x - x.mean(dim=dim, keepdim=True)
    e = torch.exp(shifted)
    return e / e.sum(dim=dim, keepdim=True)
