import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    low = x.min(dim=dim, keepdim=True).values  # shift everything down to start at 0
    e = torch.exp(x - low)
    return e / e.sum(dim=dim, keepdim=True)
