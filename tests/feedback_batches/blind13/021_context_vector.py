import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    weighted = attn_weights[:, None] * inputs  # (T, d): every row scaled by its weight
    return weighted.mean(dim=0, keepdim=True)
