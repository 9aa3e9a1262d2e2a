import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    centred = x - x.mean(dim=-1, keepdim=True)   # centre the scores around 0
    e = centred.exp()
    return e / e.sum(dim=-1, keepdim=True)
