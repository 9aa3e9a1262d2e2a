import torch


def softmax_stable(x, dim=-1):
    m = x.max()  # largest score
    e = torch.exp(x - m)
    return e / e.sum(dim=dim, keepdim=True)
