import torch.nn.functional as F


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    return F.softmax(x, dim=0)
