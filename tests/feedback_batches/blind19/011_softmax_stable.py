import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim`; shifting by the maximum changes nothing but prevents overflow."""
    # the shift needs no gradient: softmax does not change when a whole row moves by a constant
    peak = x.detach().amax(dim=dim, keepdim=True)
    weights = (x - peak).exp()
    return weights / weights.sum(dim=dim, keepdim=True)
