import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    m = x.max(dim=dim).values
    e = torch.exp(x - m)
    return e / e.sum(dim=dim, keepdim=True)
