def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    B, T, C = x.shape
    out = torch.zeros(x.shape)
    for b in range(B):
        for t in range(T):
            out[b, t] = x[b, :t].mean(dim=0)
    return out
