import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle.

    x: (B, T, C) -> (B, T, C)
    """
    B, T, _ = x.shape
    counts = torch.arange(1, T + 1, dtype=x.dtype, device=x.device)  # row t averages t + 1 tokens
    weights = torch.ones(T, T, dtype=x.dtype, device=x.device).tril() / counts[:, None]
    return weights.expand(B, T, T).bmm(x)  # one (T, T) @ (T, C) per sequence
