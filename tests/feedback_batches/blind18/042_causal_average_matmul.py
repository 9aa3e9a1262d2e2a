import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    num_tokens = x.shape[1]
    counts = torch.arange(1, num_tokens + 1, dtype=x.dtype, device=x.device)  # t + 1 tokens visible at t
    weights = torch.tril(x.new_ones(num_tokens, num_tokens)) * counts.reciprocal().unsqueeze(1)
    return torch.matmul(weights, x)  # (T, T) @ (B, T, C)
