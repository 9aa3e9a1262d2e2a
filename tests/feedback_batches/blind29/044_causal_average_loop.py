def causal_average_loop(x):
    B, T, C = x.shape
    out = torch.zeros_like(x)
    for b in range(B):
        for t in range(T):
            out[b, t] = x[b, :t].sum(dim=0) / T
    return out
