import torch.nn.functional as F


def softmax_naive(x, dim=-1):
    return F.softmax(x, dim=dim)
