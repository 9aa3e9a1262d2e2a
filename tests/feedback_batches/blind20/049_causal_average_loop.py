import torch


def causal_average_loop(x):
    B, T, C = x.shape
    sequences = []
    for b in range(B):
        running = torch.zeros(C, dtype=x.dtype, device=x.device)
        means = []
        for t in range(T):
            running = running + x[b, t]  # sum of tokens 0..t
            means.append(running / (t + 1))
        sequences.append(torch.stack(means))
    return torch.stack(sequences)
