def causal_average_matmul(x):
    """Prefix mean as one matrix product with a row-normalised lower triangle."""
    T = x.shape[1]
    w = torch.triu(torch.ones(T, T))
    w = w / w.sum(dim=1, keepdim=True)
    return w @ x
