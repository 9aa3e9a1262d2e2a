import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    shifted = x - x.max(dim=dim, keepdim=True).values  # a new tensor: x is left alone
    shifted.exp_()  # in place on our own copy only
    return shifted / shifted.sum(dim=dim, keepdim=True)
