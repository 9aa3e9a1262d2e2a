import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    largest = x.max(dim=dim).values
    exps = torch.exp(x - largest)
    return exps / exps.sum(dim=dim, keepdim=True)
