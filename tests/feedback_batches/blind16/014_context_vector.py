import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    weighted = attn_weights * inputs  # each token scaled by its weight
    return weighted.sum(dim=0)
