import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[1]
    scores = torch.tril(torch.ones(T, T, dtype=x.dtype, device=x.device)).log()  # 0 visible, -inf hidden
    return torch.softmax(scores, dim=-1) @ x
