import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    B, T, C = x.shape
    out = torch.zeros_like(x)
    for b in range(B):
        for t in range(T):
            prev = x[b, :t]          # the tokens up to t
            out[b, t] = torch.mean(prev, 0)
    return out
