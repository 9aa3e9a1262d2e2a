import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    row_max = x.max(dim=dim, keepdim=True)[1]
    e = torch.exp(x - row_max)
    return e / e.sum(dim=dim, keepdim=True)
