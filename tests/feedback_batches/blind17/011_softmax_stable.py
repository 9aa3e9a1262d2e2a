import torch


def softmax_stable(x, dim=-1):
    # shift by the smallest score: every exponent is then >= 0 and the sum is at least 1
    shifted = x - x.min(dim=dim, keepdim=True).values
    e = torch.exp(shifted)
    return e / e.sum(dim=dim, keepdim=True)
