def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    num_tokens = x.shape[0]
    lower = torch.ones(num_tokens, num_tokens, dtype=x.dtype, device=x.device).tril()
    return (lower / num_tokens) @ x
