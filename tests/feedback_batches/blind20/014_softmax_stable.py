import torch


def softmax_stable(x, dim=-1):
    centred = x - x.mean(dim=dim, keepdim=True)
    e = torch.exp(centred)
    return e / e.sum(dim=dim, keepdim=True)
