import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t].

    x: (B, T, C) -> (B, T, C)
    """
    rows = []
    for sequence in x:  # (T, C)
        prefix_means = [sequence[: t + 1].mean(dim=0) for t in range(sequence.shape[0])]
        rows.append(torch.stack(prefix_means))  # (T, C)
    return torch.stack(rows)  # (B, T, C)
