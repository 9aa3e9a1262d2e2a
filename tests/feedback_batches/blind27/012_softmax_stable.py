import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    shifted = x - x.max(dim, keepdim=True)[0]  # a new tensor: x stays as it was
    shifted.exp_()  # in place on our own copy; every value now in (0, 1]
    return shifted / shifted.sum(dim, keepdim=True)
