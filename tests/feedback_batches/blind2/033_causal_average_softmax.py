import torch
import torch.nn.functional as F


def causal_average_softmax(x):
    """Prefix mean via masked_fill(-inf) + softmax, the form attention uses."""
    T = x.shape[-2]
    ones = torch.ones(T, T, device=x.device)
    wei = torch.zeros(T, T, dtype=x.dtype, device=x.device)
    wei = wei.masked_fill(torch.triu(ones) == 0, float("-inf"))
    wei = F.softmax(wei, dim=-1)
    return wei @ x
