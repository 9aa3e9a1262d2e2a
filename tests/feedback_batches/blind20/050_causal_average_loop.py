import torch


def causal_average_loop(x):
    out = torch.zeros_like(x)
    for b in range(x.shape[0]):
        for t in range(x.shape[1]):
            out[b, t] = x[b, :t].mean(dim=0)
    return out
