import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t].
    x: (B, T, C) -> (B, T, C)
    """
    B, T, C = x.shape
    out = torch.zeros_like(x)
    for b in range(B):
        for t in range(T):
            prev = x[b, :t]  # everything up to t
            out[b, t] = torch.mean(prev, dim=0)
    return out
