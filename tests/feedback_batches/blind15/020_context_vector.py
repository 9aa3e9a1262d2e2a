import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    weighted = attn_weights * inputs.T  # (d, T)
    return weighted.sum(dim=0)
