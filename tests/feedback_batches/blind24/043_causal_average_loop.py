import torch


def causal_average_loop(x):
    batch_size, num_tokens, _ = x.shape
    rows = []
    for b in range(batch_size):
        running = torch.zeros_like(x[b, 0])
        means = []
        for t in range(num_tokens):
            running = running + x[b, t]  # sum of x[b, 0..t]
            means.append(running / (t + 1))
        rows.append(torch.stack(means))
    return torch.stack(rows)
