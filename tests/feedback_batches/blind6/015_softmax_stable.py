import torch


def softmax_stable(x, dim=-1):
    shifted = x - x.amax(dim=dim, keepdim=True)   # new tensor: the largest entry is 0
    shifted.exp_()                                # safe in place: we own `shifted`
    shifted.div_(shifted.sum(dim=dim, keepdim=True))
    return shifted
