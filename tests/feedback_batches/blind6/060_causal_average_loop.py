import torch


def causal_average_loop(x):
    B, T, C = x.shape
    per_sequence = []
    for b in range(B):
        per_sequence.append(torch.stack([x[b, t:].mean(dim=0) for t in range(T)]))
    return torch.stack(per_sequence)
