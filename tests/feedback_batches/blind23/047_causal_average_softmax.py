import torch


def causal_average_softmax(x):
    T = x.shape[1]
    lower = torch.ones(T, T, dtype=x.dtype, device=x.device).tril()
    scores = torch.log(lower)  # log 1 = 0 where visible, log 0 = -inf in the future
    return torch.softmax(scores, dim=-1) @ x
