def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    batch_size, num_tokens, _ = x.shape
    counts = torch.arange(1, num_tokens + 1, device=x.device, dtype=x.dtype).unsqueeze(1)  # (T, 1)
    weights = torch.ones(num_tokens, num_tokens, device=x.device, dtype=x.dtype).tril() / counts
    return torch.bmm(weights.expand(batch_size, -1, -1), x)  # batched product
