def causal_average_loop(x):
    B, T, C = x.shape
    xbow = torch.zeros((B, T, C))
    for b in range(B):
        for t in range(T):
            xprev = x[b, :t]
            xbow[b, t] = torch.mean(xprev, 0)
    return xbow
