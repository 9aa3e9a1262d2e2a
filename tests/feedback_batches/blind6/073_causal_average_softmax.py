import torch


def causal_average_softmax(x):
    T = x.shape[1]
    tril = torch.tril(torch.ones(T, T, device=x.device))
    wei = torch.zeros(T, T, dtype=x.dtype, device=x.device)
    wei = wei.masked_fill(tril == 0, float("inf"))
    wei = torch.softmax(wei, dim=-1)
    return wei @ x
