import numpy as np
import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    x = x.float()                       # make sure we work in floating point
    e = np.e ** x
    return e / e.sum(dim=dim)           # sum along dim
