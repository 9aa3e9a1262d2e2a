import torch


def causal_average_matmul(x):
    T = x.shape[1]
    w = torch.triu(torch.ones(T, T, dtype=x.dtype, device=x.device))
    w = w / w.sum(dim=-1, keepdim=True)
    return w @ x
