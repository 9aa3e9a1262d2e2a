import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    z = x - x.amax(dim=dim, keepdim=True)   # largest entry becomes exactly 0
    ez = z.exp()
    return ez / ez.sum(dim=dim, keepdim=True)
