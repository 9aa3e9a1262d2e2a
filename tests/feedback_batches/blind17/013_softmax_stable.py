import torch


def softmax_stable(x, dim=-1):
    biggest = x.max(dim=dim).values
    return torch.softmax(x - biggest, dim=dim)
