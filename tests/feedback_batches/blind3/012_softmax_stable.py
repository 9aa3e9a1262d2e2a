import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    shifted = x - torch.amax(x, dim=dim, keepdim=True)  # max of each slice is now 0
    numerator = shifted.exp()
    return numerator / numerator.sum(dim=dim, keepdim=True)
