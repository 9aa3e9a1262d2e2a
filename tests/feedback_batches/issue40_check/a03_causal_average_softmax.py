import torch


def causal_average_softmax(x):
    T = x.shape[1]
    scores = torch.zeros(T, T, dtype=x.dtype, device=x.device)
    scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1), float("-inf"))
    out = torch.softmax(scores, dim=-1) @ x
    return out.to("cpu")  # results back on the host for printing
