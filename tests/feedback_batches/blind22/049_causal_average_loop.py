import torch


def causal_average_loop(x):
    batch_size, num_tokens, _ = x.shape
    out = torch.empty_like(x)
    for b in range(batch_size):
        running = torch.zeros_like(x[b, 0])  # sum of the tokens seen so far
        for t in range(num_tokens):
            running = running + x[b, t]
            out[b, t] = running / (t + 1)
    return out
