import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    weights = attn_weights.softmax(dim=0)  # make sure they sum to 1
    return (weights[:, None] * inputs).mean(dim=0)
