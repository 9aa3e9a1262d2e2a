import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    T = x.shape[-2]
    counts = torch.arange(1, T + 1, dtype=x.dtype, device=x.device).unsqueeze(1)  # (T, 1): t + 1
    weights = torch.ones(T, T, dtype=x.dtype, device=x.device).tril_() / counts
    return weights @ x
