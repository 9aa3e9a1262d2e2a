import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    B, T, C = x.shape
    out = torch.empty_like(x)
    for b in range(B):
        running = x.new_zeros(C)              # sum of the tokens seen so far
        for t in range(T):
            running = running + x[b, t]
            out[b, t] = running / (t + 1)
    return out
