import torch


def softmax_naive(x, dim=-1):
    e = torch.exp(x)
    total = e.sum(dim).unsqueeze(dim)  # put the summed dimension back, size 1
    return e * total.reciprocal()
