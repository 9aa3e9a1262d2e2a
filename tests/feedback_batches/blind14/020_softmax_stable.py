import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    biggest = x.max(dim=dim).values
    return torch.softmax(x - biggest, dim=dim)
