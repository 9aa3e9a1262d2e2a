import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    out = torch.zeros(x.shape[0], 8, x.shape[2])
    for b in range(x.shape[0]):
        for t in range(8):
            out[b, t] = x[b, : t + 1].mean(dim=0)
    return out
