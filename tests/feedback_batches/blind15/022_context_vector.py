import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    weights = torch.softmax(attn_weights, dim=0)
    return weights @ inputs
