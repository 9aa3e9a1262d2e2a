import torch


def causal_average_loop(x):
    B, T, C = x.shape
    out = torch.empty_like(x)
    running = torch.zeros_like(x[0, 0])
    for b in range(B):
        for t in range(T):
            running += x[b, t]
            out[b, t] = running / (t + 1)
    return out
