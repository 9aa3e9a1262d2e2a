import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    return (attn_weights * inputs.T).sum(dim=0)
