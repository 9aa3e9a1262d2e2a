import torch


def causal_average_matmul(x):
    T = x.shape[1]
    lower = torch.ones(T, T, dtype=x.dtype, device=x.device).tril()
    counts = lower.cumsum(dim=1)[:, -1:]  # (T, 1): the number of ones in each row, t + 1
    return torch.matmul(lower / counts, x)
