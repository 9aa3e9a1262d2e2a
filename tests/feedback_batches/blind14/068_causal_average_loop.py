import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    out = torch.zeros_like(x)
    for t in range(x.shape[1]):  # the batch dimension is handled by slicing
        out[:, t] = x[:, : t + 1].mean(dim=0)
    return out
