import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings: (T,), (T, d) -> (d,)."""
    context = attn_weights[:, None] * inputs
    return context
