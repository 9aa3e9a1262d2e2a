import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    T = x.shape[1]
    lower = torch.eye(T, dtype=x.dtype, device=x.device).cumsum(dim=0)  # row t: ones on 0..t
    weights = lower / lower.sum(dim=1, keepdim=True)
    return torch.matmul(weights, x)
