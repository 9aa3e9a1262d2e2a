def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    num_tokens = x.shape[1]
    running = torch.zeros_like(x[:, 0])  # (B, C): the sum of the tokens seen so far
    means = []
    for t in range(num_tokens):
        running = running + x[:, t]
        means.append(running / (t + 1))
    return torch.stack(means, dim=1)  # (B, T, C)
