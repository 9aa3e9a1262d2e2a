def causal_average_loop(x):
    """Prefix mean with one loop over time and a running sum carried along."""
    running = torch.zeros_like(x[:, 0])  # (B, C)
    means = []
    for t, step in enumerate(x.unbind(dim=1)):  # step: (B, C), the tokens at position t
        running = running + step
        means.append(running / (t + 1))
    return torch.stack(means, dim=1)  # (B, T, C)
