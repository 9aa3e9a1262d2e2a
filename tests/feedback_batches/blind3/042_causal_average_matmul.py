import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle.

    x: (B, T, C) -> (B, T, C)
    """
    T = x.size(1)
    lower = torch.ones(T, T, dtype=x.dtype, device=x.device).tril()
    weights = lower / lower.sum(-1, keepdim=True)  # row t: 1/(t+1) on 0..t
    return torch.einsum("ts,bsc->btc", weights, x)
