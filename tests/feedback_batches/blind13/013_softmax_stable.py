import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    shifted = x - torch.max(x)  # the largest score becomes 0, so no exp can overflow
    e = torch.exp(shifted)
    return e / e.sum(dim=dim, keepdim=True)
