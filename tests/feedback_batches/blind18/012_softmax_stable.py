import torch


def softmax_stable(x, dim=-1):
    x = x.double()  # more headroom for exp
    e = torch.exp(x - x.max())
    return e / e.sum(dim=dim, keepdim=True)
