import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    T = x.shape[-2]
    pos = torch.arange(T, device=x.device)
    lower = (pos.unsqueeze(0) <= pos.unsqueeze(1)).to(x.dtype)       # [t, s] = 1 when s <= t
    counts = torch.arange(1, T + 1, device=x.device, dtype=x.dtype)  # t + 1 tokens in row t
    weights = lower / counts.unsqueeze(1)
    return torch.einsum("ts,bsc->btc", weights, x)
