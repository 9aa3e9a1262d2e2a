def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    num_tokens = x.shape[1]
    weights = torch.tril(torch.ones(num_tokens, num_tokens))
    weights = weights / weights.sum(dim=0, keepdim=True)
    return weights @ x
