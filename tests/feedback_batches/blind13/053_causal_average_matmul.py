import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    T = x.size(1)
    ones = torch.ones(T, T, dtype=x.dtype, device=x.device)
    weights = torch.tril(ones, diagonal=-1)  # the tokens before t
    weights = weights / weights.sum(dim=1, keepdim=True)
    return torch.matmul(weights, x)
