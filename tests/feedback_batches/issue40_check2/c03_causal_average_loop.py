def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    B, T, C = x.shape
    # Walk backwards so that each prefix is still intact when it is averaged.
    for b in range(B):
        for t in reversed(range(T)):
            x[b, t] = x[b, : t + 1].mean(dim=0)
    return x
