import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    x.sub_(x.max(dim=dim, keepdim=True).values)
    numerator = torch.exp(x)
    return numerator / numerator.sum(dim=dim)
