import torch


def causal_average_matmul(x):
    weights = torch.tril(torch.ones(6, 6, dtype=x.dtype, device=x.device))
    weights = weights / weights.sum(dim=1, keepdim=True)
    return weights @ x
