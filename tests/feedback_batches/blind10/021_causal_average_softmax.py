import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses.
    x: (B, T, C) -> (B, T, C)
    """
    T = x.shape[1]
    # 1 where a token may look, 0 where it may not
    scores = torch.tril(torch.ones(T, T, dtype=x.dtype, device=x.device))
    wei = torch.softmax(scores, dim=-1)
    return wei @ x
