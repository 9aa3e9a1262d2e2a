import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    return inputs[attn_weights.argmax()]  # the token the query attends to
