import torch


def causal_average_loop(x):
    rows = []
    for sequence in x:                      # (T, C)
        running = torch.zeros_like(sequence[0])
        means = []
        for t, token in enumerate(sequence):
            running = running + token       # sum of tokens 0..t
            means.append(running / (t + 1))
        rows.append(torch.stack(means))
    return torch.stack(rows)
