import torch


def causal_average_loop(x):
    """Prefix mean with Python loops: out[b, t] = mean of x[b, 0..t].
    x: (B, T, C) -> (B, T, C)
    """
    batch_size, num_tokens, channels = x.shape
    out = torch.zeros(batch_size, num_tokens, channels)
    for b in range(batch_size):
        for t in range(num_tokens):
            out[b, t] = x[b, : t + 1].mean(dim=0)
    return out
