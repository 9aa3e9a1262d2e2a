import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t]."""
    batch_size, num_tokens, _ = x.shape
    sequences = []
    for b in range(batch_size):
        prefix_means = [x[b, : t + 1].mean(dim=0) for t in range(num_tokens)]
        sequences.append(torch.stack(prefix_means))  # (T, C)
    return torch.stack(sequences)  # (B, T, C)
