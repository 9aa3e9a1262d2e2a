import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    num_tokens = x.shape[-2]
    # -inf strictly above the diagonal, 0 on and below it, in x's dtype and on x's device
    scores = x.new_full((num_tokens, num_tokens), float("-inf")).triu(diagonal=1)
    return scores.softmax(dim=-1) @ x
