import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    num_seqs, num_tokens, _ = x.shape
    out = torch.empty_like(x)
    for b in range(num_seqs):
        mean = torch.zeros_like(x[b, 0])  # (C,)
        for t in range(num_tokens):
            mean = mean + (x[b, t] - mean) / (t + 1)  # running (Welford) update of the mean
            out[b, t] = mean
    return out
