import torch


def causal_average_loop(x):
    B, T, C = x.shape
    out = torch.zeros(B, T, C)
    for b in range(B):
        for t in range(T):
            out[b, t] = x[b, :t + 1].sum(dim=0) / T
    return out
