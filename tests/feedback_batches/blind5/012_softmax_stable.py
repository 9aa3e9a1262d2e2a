import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    c = x.max()          # one constant for the whole tensor
    e = torch.exp(x - c)
    return e / e.sum(dim=dim, keepdim=True)
