import torch


def causal_average_softmax(x):
    T = x.shape[1]
    pos = torch.arange(T, device=x.device)
    hidden = pos.unsqueeze(0) > pos.unsqueeze(1)  # [i, j]: j comes after i
    neg_inf = torch.full((), float("-inf"), dtype=x.dtype, device=x.device)
    zero = torch.zeros((), dtype=x.dtype, device=x.device)
    scores = torch.where(hidden, neg_inf, zero)  # every visible position scores the same
    return torch.softmax(scores, dim=-1) @ x
