import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    c = torch.max(x)  # biggest score, so nothing can overflow
    e = torch.exp(x - c)
    return e / e.sum(dim=dim, keepdim=True)
