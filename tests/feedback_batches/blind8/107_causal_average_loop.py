import torch


def causal_average_loop(x):
    B, T, C = x.shape
    out = torch.empty_like(x)
    for b in range(B):
        for t in range(T):
            acc = torch.zeros_like(x[b, 0])
            for s in range(t + 1):  # C-style accumulation of the prefix
                acc = acc + x[b, s]
            out[b, t] = acc / (t + 1)
    return out
