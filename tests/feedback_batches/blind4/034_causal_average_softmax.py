import torch
from torch import nn


def causal_average_softmax(x):
    """Prefix mean via masked_fill(-inf) + softmax, the form attention uses.

    x: (B, T, C) -> (B, T, C)
    """
    T = x.shape[1]
    # start from -inf everywhere, then triu(1) sets the diagonal and everything below it to 0:
    # zeros (equal scores) where a token may look, -inf where it would look into the future
    scores = torch.full((T, T), float("-inf"), dtype=x.dtype, device=x.device).triu(diagonal=1)
    return scores.softmax(dim=-1) @ x
