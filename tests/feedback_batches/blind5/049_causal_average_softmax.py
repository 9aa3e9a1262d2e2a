import torch
import torch.nn.functional as F


def causal_average_softmax(x):
    """Prefix mean via masked_fill(-inf) + softmax, the form attention uses."""
    T = x.shape[1]
    tril = torch.tril(torch.ones(T, T, device=x.device))
    wei = torch.zeros(T, T, dtype=x.dtype, device=x.device)
    wei = wei.masked_fill(tril == 0, float("-inf"))
    wei = F.softmax(wei, dim=-1)
    return wei @ x
