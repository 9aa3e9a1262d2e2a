import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    weighted = attn_weights.unsqueeze(1) * inputs  # (T, d): each row times its weight
    return weighted.mean(dim=0)
