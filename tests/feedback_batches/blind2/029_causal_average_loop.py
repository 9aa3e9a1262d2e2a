import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    B, T, C = x.shape
    xbow = torch.zeros(B, T, C)
    for b in range(B):
        for t in range(T):
            xprev = x[b, : t + 1]  # (t + 1, C)
            xbow[b, t] = torch.mean(xprev, 0)
    return xbow
