import torch


def causal_average_matmul(x):
    T = x.size(1)
    counts = torch.arange(1, T + 1, device=x.device, dtype=x.dtype).unsqueeze(1)  # (T, 1): 1, 2, ..., T
    weights = torch.ones(T, T, device=x.device, dtype=x.dtype).tril_() / counts
    return torch.matmul(weights, x)  # (T, T) @ (B, T, C)
