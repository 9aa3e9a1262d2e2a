import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle.

    x: (B, T, C) -> (B, T, C)
    """
    T = x.shape[-2]
    counts = torch.arange(1, T + 1, dtype=x.dtype, device=x.device)  # 1, 2, ..., T
    weights = x.new_ones(T, T).tril() / counts.unsqueeze(-1)  # row t: 1/(t+1) on its first t+1 entries
    return torch.matmul(weights, x)
