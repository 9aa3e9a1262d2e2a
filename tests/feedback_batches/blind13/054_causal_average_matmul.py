import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    T = x.shape[-1]
    counts = torch.arange(1, T + 1, dtype=x.dtype, device=x.device)  # 1, 2, ..., T
    weights = torch.ones(T, T, dtype=x.dtype, device=x.device).tril() / counts
    return weights.expand(x.shape[0], T, T).bmm(x)
