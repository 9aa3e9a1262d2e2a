import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    shifted = x - x.max()  # the largest entry is now 0
    exp_x = torch.exp(shifted)
    weights = exp_x / exp_x.sum(dim=-1, keepdim=True)
    return weights.round(decimals=4)  # same precision as the book
