import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    out = torch.empty_like(x)
    for b, sequence in enumerate(x):
        running = torch.zeros_like(sequence[0])
        for t, row in enumerate(sequence):
            running = running + row
            out[b, t] = running / (t + 1)
    return out
