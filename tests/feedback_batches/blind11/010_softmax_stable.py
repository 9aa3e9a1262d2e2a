import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    x = x.float()  # make sure we work in floating point
    shift = x.max(dim=-1, keepdim=True).values
    e = torch.exp(x - shift)
    return e / e.sum(dim=dim, keepdim=True)
