import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    out = torch.zeros(x.shape)
    for t in range(x.shape[1]):
        out[:, t] = x[:, : t + 1].mean(dim=0)  # every sequence of the batch at once
    return out
