def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    out = x  # same shape, dtype and device as x
    for b in range(x.shape[0]):
        for t in range(x.shape[1]):
            out[b, t] = x[b, : t + 1].mean(dim=0)
    return out
