import torch


def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    batch_size, num_tokens, _ = x.shape
    counts = torch.arange(1, num_tokens + 1, dtype=x.dtype, device=x.device)  # 1, 2, ..., T
    weights = x.new_ones(num_tokens, num_tokens).tril() / counts.unsqueeze(1)  # row t: 1/(t+1)
    return weights.expand(batch_size, num_tokens, num_tokens).bmm(x)  # (B, T, T) @ (B, T, C)
