def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    out = torch.empty_like(x)
    running = torch.zeros_like(x[:, 0])  # (B, C): sum of the tokens seen so far, every sequence at once
    for t in range(x.shape[1]):
        running = running + x[:, t]
        out[:, t] = running / (t + 1)
    return out
