import torch


def causal_average_loop(x):
    B, T, C = x.shape
    out = torch.zeros_like(x)
    for b in range(B):
        for t in range(T):
            out[b, t] = torch.mean(x[b, :t], dim=0)
    return out
