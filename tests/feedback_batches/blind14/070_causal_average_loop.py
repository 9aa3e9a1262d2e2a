import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    B, T, C = x.shape
    out = torch.zeros(B, T, C)
    for b in range(B):
        for t in range(T):
            out[b, t] = x[b, : t + 1].sum(dim=0) / t  # t tokens before this one
    return out
