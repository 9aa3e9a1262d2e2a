import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    shifted = x - x.amax(dim=dim, keepdim=True)  # the largest entry of every slice becomes 0
    e = shifted.exp()  # each in (0, 1]
    total = e.sum(dim=dim, keepdim=True, dtype=torch.float64)  # accumulate the denominator in double
    return (e / total).to(x.dtype)
