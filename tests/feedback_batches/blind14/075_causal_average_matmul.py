import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    B, T, _ = x.shape
    position = torch.arange(T, device=x.device)
    lower = (position.unsqueeze(1) >= position.unsqueeze(0)).to(x.dtype)  # 1 where key <= query
    counts = torch.arange(1, T + 1, device=x.device, dtype=x.dtype).unsqueeze(1)  # t + 1 per row
    weights = lower / counts
    return torch.bmm(weights.expand(B, T, T), x)  # the same (T, T) matrix for every sequence
