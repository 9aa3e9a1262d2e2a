import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    T = x.size(1)
    ones = torch.ones(T, T, dtype=x.dtype, device=x.device)
    weights = torch.triu(ones)
    weights = weights / weights.sum(dim=0, keepdim=True)
    return weights @ x
