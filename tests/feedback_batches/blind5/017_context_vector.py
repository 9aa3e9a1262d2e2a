import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    return torch.einsum("t,td->t", attn_weights, inputs)
