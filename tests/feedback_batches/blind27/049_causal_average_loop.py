def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t].

    x: (B, T, C) -> (B, T, C)
    """
    B, T, _ = x.shape
    out = x
    for b in range(B):
        for t in range(T):
            out[b, t] = x[b, : t + 1].sum(dim=0) / T
    return out
