import torch


def causal_average_softmax(x):
    T = x.shape[1]
    visible = torch.tril(torch.ones(T, T, dtype=x.dtype, device=x.device))
    scores = visible.masked_fill(visible == 0, 0.0)
    return torch.softmax(scores, dim=-1) @ x
