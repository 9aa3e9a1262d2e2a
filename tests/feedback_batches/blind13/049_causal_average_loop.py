import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    B, T, C = x.shape
    out = torch.zeros_like(x)
    for b in range(B):
        for t in range(1, T):  # token 0 has no past to average
            out[b, t] = x[:, : t + 1].mean(dim=(0, 1))
    return out
