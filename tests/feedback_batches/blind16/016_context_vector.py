import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    weights = torch.softmax(attn_weights, dim=0)  # make sure they sum to 1
    return weights.unsqueeze(0) @ inputs  # (1, T) @ (T, d)
