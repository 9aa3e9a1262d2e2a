def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    n = x.size(1)
    w = torch.tril(torch.ones(n, n, device=x.device, dtype=x.dtype))
    w = w / w.sum(dim=0, keepdim=True)
    return x @ w
