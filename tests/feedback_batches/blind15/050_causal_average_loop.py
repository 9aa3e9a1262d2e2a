import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    B, T, C = x.shape
    out = torch.zeros(B, T, C, dtype=x.dtype, device=x.device)
    for b in range(B):
        for t in range(T):
            out[b, t] = torch.mean(x[b, :t], dim=0)
    return out
