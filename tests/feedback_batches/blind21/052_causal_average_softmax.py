import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[-2]
    # -inf strictly above the diagonal, 0 on and below it: equal scores for the visible positions
    scores = torch.full((T, T), float("-inf"), dtype=x.dtype, device=x.device).triu(diagonal=1)
    return scores.softmax(dim=-1) @ x
