import functools

import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    # the maximum along dim, folded slice by slice with torch.maximum, then put back as a size-1 dim
    top = functools.reduce(torch.maximum, x.unbind(dim)).unsqueeze(dim)
    e = torch.exp(x - top)  # every exponent <= 0: no overflow, and the top entry gives exp(0) = 1
    return e / e.sum(dim=dim, keepdim=True)
