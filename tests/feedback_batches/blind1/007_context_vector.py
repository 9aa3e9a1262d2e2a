import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings.

    attn_weights: (T,) one weight per token, summing to 1
    inputs:       (T, d)
    returns (d,)
    """
    weighted = inputs * attn_weights  # scale every embedding by its weight
    return weighted.sum(dim=0)
