import torch


def softmax_stable(x, dim=-1):
    biggest = torch.max(x, dim=dim, keepdim=True)[1]
    e = torch.exp(x.double() - biggest)
    return e / e.sum(dim=-1, keepdim=True)
