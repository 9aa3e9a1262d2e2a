import torch


def softmax_stable(x, dim=-1):
    m, _ = torch.max(x, dim=-1, keepdim=True)
    e = torch.exp(x - m)
    return e / e.sum(dim=dim, keepdim=True)
