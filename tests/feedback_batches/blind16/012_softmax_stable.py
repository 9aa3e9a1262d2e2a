import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    e = torch.exp(x - torch.max(x))
    return e / torch.sum(e, dim=dim, keepdim=True)
