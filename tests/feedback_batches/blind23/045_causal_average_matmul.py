import torch


def causal_average_matmul(x):
    T = x.shape[1]
    inverse_counts = 1.0 / torch.arange(1, T + 1, device=x.device, dtype=x.dtype)  # 1/(t+1)
    weights = inverse_counts.unsqueeze(1).expand(T, T).tril()
    return weights @ x
