import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings.

    attn_weights: (T,) one weight per token, summing to 1
    inputs:       (T, d)
    returns (d,)
    """
    # (T, 1) * (T, d): each row scaled by its weight, then summed over the tokens
    return (attn_weights[:, None] * inputs).sum(axis=0)
