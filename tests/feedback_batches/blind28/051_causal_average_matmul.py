def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    T = x.shape[1]
    w = torch.tril(torch.ones(T, T, dtype=x.dtype)) / T
    return w.T @ x
