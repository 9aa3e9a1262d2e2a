import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    # softmax(x) == softmax(x - c) for any constant c; c = the row's max
    # makes every exponent <= 0 and the largest term exactly exp(0) = 1
    row_max = x.amax(dim=dim, keepdim=True).detach()
    shifted = x - row_max          # a new tensor, x stays untouched
    numer = shifted.exp()
    denom = numer.sum(dim=dim, keepdim=True)
    return numer / denom
