import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses.

    x: (B, T, C) -> (B, T, C)
    """
    T = x.shape[1]
    visible = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
    # the lowest finite number of the dtype instead of -inf: once the row maximum (0) is taken off, its exp is exactly 0
    lowest = torch.finfo(x.dtype).min
    scores = torch.zeros(T, T, dtype=x.dtype, device=x.device).masked_fill(~visible, lowest)
    return torch.softmax(scores, dim=-1) @ x
