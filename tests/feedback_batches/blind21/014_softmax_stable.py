import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    centred = x - x.mean(dim=dim, keepdim=True)
    e = torch.exp(centred)
    return e / e.sum(dim=dim, keepdim=True)
