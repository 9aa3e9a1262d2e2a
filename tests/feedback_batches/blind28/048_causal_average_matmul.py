def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    T = x.shape[1]
    lower = torch.ones(T, T, dtype=x.dtype, device=x.device).tril()
    weights = nn.functional.normalize(lower, p=1.0, dim=1)  # each row divided by its L1 norm, t + 1
    return torch.matmul(weights, x)
