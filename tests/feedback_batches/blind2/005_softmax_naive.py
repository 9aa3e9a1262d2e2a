import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`, computed in float64 and returned in the dtype of x."""
    exps = x.to(torch.float64).exp()
    return (exps / exps.sum(dim=dim, keepdim=True)).to(x.dtype)
