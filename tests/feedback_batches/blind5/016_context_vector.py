import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    weighted = inputs * attn_weights[:, None]   # scale every row by its weight
    return weighted.mean(dim=0)
