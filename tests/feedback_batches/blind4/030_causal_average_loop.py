import torch
from torch import nn


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t].

    x: (B, T, C) -> (B, T, C)
    """
    batches = []
    for sequence in x:  # (T, C) each
        running_total = torch.zeros_like(sequence[0])
        means = []
        for t, token in enumerate(sequence):
            running_total = running_total + token  # sum of tokens 0..t
            means.append(running_total / (t + 1))
        batches.append(torch.stack(means))
    return torch.stack(batches)
