import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    B, T, _ = x.shape
    out = torch.empty_like(x)
    for b in range(B):
        for t in range(T):
            seen = torch.index_select(x[b], 0, torch.arange(t + 1, device=x.device))  # rows 0..t
            out[b, t] = seen.mean(dim=0)
    return out
