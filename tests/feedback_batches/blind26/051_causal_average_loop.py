def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    batch_size, num_tokens, _ = x.shape
    out = torch.zeros(x.shape)
    for b in range(batch_size):
        for t in range(1, num_tokens):
            out[b, t] = x[b, t:].mean(dim=0)
    return out
