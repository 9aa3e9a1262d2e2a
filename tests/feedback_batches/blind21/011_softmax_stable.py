import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    top = x.topk(1, dim=dim).values  # the largest entry along dim, kept as a size-1 dim
    e = torch.exp(x - top)  # every exponent <= 0
    return e / e.sum(dim=dim, keepdim=True)
