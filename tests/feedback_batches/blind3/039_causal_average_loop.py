import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t].

    x: (B, T, C) -> (B, T, C)
    """
    return torch.stack([
        torch.stack([seq[: t + 1].mean(dim=0) for t in range(seq.shape[0])])
        for seq in x
    ])
