import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    # the first entry of a descending sort is the row maximum
    top = x.sort(dim=dim, descending=True).values.narrow(dim, 0, 1)
    e = torch.exp(x - top)  # largest exponent is exp(0) = 1
    return e / e.sum(dim=dim, keepdim=True)
