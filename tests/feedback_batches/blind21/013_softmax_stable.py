import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    top = x.max()
    x -= top
    e = torch.exp(x)
    return e / e.sum(dim=dim, keepdim=True)
