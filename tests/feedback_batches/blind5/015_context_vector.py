import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    return inputs.T @ attn_weights     # (d, T) @ (T,) -> (d,)
