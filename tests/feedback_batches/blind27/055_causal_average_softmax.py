from torch import nn


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses.

    x: (B, T, C) -> (B, T, C)
    """
    T = x.shape[1]
    # -inf above the diagonal (exp(-inf) = 0), 0 elsewhere: equal scores on what a token may see
    scores = torch.full((T, T), float("-inf"), dtype=x.dtype, device=x.device).triu(diagonal=1)
    weights = nn.Softmax(dim=-1)(scores)
    return weights @ x
