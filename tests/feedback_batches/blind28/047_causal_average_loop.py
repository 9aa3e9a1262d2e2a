def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    out = torch.zeros_like(x)
    for b in range(x.shape[0]):
        for t in range(8):
            out[b, t] = x[b, : t + 1].sum(dim=0) / x.shape[1]
    return out
