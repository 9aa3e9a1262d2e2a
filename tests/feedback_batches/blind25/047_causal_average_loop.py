def causal_average_loop(x):
    B, T, C = x.shape
    for b in range(B):
        for t in range(T):
            x[b, t] = x[b, t:].sum(dim=0) / T
    return x
