import torch
from torch import Tensor


def softmax_naive(x: Tensor, dim: int = -1) -> Tensor:
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    exps: Tensor = torch.exp(x)
    partition: Tensor = torch.sum(exps, dim=dim, keepdim=True)  # size 1 along dim
    return exps / partition
