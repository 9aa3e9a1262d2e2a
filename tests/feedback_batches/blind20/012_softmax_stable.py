import torch


def softmax_stable(x, dim=-1):
    # the last entry of the running maximum along dim is the maximum of the whole slice
    row_max = torch.cummax(x, dim=dim).values.narrow(dim, -1, 1)
    e = torch.exp(x - row_max)
    return e / e.sum(dim=dim, keepdim=True)
