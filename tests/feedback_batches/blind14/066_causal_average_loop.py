import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    sequences = []
    for sequence in x:  # (T, C) at a time
        running = torch.zeros_like(sequence[0])  # the sum so far, (C,)
        means = []
        for t, token in enumerate(sequence):
            running = running + token
            means.append(running / (t + 1))
        sequences.append(torch.stack(means))
    return torch.stack(sequences)  # (B, T, C)
