def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    num_tokens = x.shape[1]
    weights = torch.triu(torch.ones(num_tokens, num_tokens, device=x.device, dtype=x.dtype))
    weights = weights / weights.sum(dim=1, keepdim=True)
    return x @ weights
