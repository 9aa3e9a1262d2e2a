def causal_average_matmul(x):
    T = x.shape[1]
    ones_below = torch.ones(T, T, dtype=x.dtype, device=x.device).tril()
    counts = torch.arange(1, T + 1, dtype=x.dtype, device=x.device)     # row t sees t + 1 tokens
    weights = torch.diag(counts.reciprocal()) @ ones_below               # scale row t by 1 / (t + 1)
    return torch.matmul(weights, x)
