import torch


def causal_average_loop(x):
    """out[b, t] = mean of x[b, 0..t], with a running sum per sequence."""
    sequences = []
    for sequence in x:  # (T, C)
        running, means = torch.zeros_like(sequence[0]), []
        for t, token in enumerate(sequence):
            running = running + token
            means.append(running / (t + 1))
        sequences.append(torch.stack(means))
    return torch.stack(sequences)
