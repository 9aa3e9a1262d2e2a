import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t].

    x: (B, T, C) -> (B, T, C)
    """
    out = torch.empty_like(x)
    for b in range(x.shape[0]):
        running = torch.zeros_like(x[b, 0])  # (C,): the sum of the tokens seen so far
        for t in range(x.shape[1]):
            running = running + x[b, t]
            out[b, t] = running / (t + 1)
    return out
