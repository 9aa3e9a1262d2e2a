import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    row_max = x.max(dim=-1, keepdim=True).values  # the largest score of each row
    exps = torch.exp(x - row_max)
    return exps / exps.sum(dim=dim, keepdim=True)
