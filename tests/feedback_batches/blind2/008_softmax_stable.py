import torch
from torch import Tensor


def softmax_stable(x: Tensor, dim: int = -1) -> Tensor:
    x_max = torch.max(x, dim=dim, keepdim=True).values
    x_shifted = x - x_max
    exp_x = torch.exp(x)
    return exp_x / torch.sum(exp_x, dim=dim, keepdim=True)
