def causal_average_loop(x):
    batch_size, num_tokens, _ = x.shape
    out = torch.empty_like(x)
    for b in range(batch_size):
        running_sum = torch.zeros_like(x[b, 0])
        for t in range(num_tokens):
            running_sum = running_sum + x[b, t]      # x[b, 0] + ... + x[b, t]
            out[b, t] = running_sum / (t + 1)
    return out
