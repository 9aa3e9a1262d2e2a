import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    batch_size, num_tokens, _ = x.shape
    out = torch.empty_like(x)
    for b in range(batch_size):
        running = torch.zeros_like(x[b, 0])  # (C,) sum of x[b, 0..t]
        for t in range(num_tokens):
            running = running + x[b, t]
            out[b, t] = running / (t + 1)
    return out
