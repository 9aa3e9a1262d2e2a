import torch


def softmax_stable(x, dim=-1):
    # shift so that the smallest score is 0: every exponent is then >= 0
    shifted = x - x.min(dim=dim, keepdim=True).values
    e = torch.exp(shifted)
    return e / e.sum(dim=dim, keepdim=True)
