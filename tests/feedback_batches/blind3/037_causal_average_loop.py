import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t].

    x: (B, T, C) -> (B, T, C)
    """
    B, T, C = x.shape
    out = torch.zeros_like(x)
    for b in range(B):
        running = torch.zeros_like(x[b, 0])
        for t in range(T):
            running = running + x[b, t]
            out[b, t] = running / t
    return out
