import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    return torch.sum(inputs * attn_weights, dim=0)
