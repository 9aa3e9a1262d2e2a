import torch


def softmax_naive(x, dim=-1):
    e = x.exp_()
    return (e / e.sum()).to(torch.float32)
