import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    return torch.mm(attn_weights.unsqueeze(0), inputs)
