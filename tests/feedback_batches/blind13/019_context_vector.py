import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    return torch.matmul(attn_weights, inputs.T)
