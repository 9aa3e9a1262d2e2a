import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    total = torch.zeros_like(inputs[0])
    for weight, row in zip(attn_weights, inputs):
        total = total + weight * row
    return total
