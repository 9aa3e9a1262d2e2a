import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    shifted = x - x.max(dim=dim, keepdim=True).values
    return torch.softmax(shifted, dim=dim)
