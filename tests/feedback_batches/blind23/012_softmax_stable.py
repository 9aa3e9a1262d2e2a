import torch


def softmax_stable(x, dim=-1):
    # the largest entry along dim is the last one after sorting
    largest = torch.sort(x, dim=dim).values.narrow(dim, x.size(dim) - 1, 1)
    e = torch.exp(x - largest)
    return e / e.sum(dim=dim, keepdim=True)
