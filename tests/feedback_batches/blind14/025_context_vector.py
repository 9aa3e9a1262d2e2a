import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    weighted = attn_weights.unsqueeze(1) * inputs  # (T, 1) * (T, d)
    return weighted.sum(dim=1)
