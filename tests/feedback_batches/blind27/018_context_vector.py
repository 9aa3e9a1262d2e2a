import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    weights = attn_weights.softmax(dim=0)  # make sure they sum to 1
    scaled_rows = torch.diag_embed(weights) @ inputs  # row j is weights[j] * inputs[j]
    return scaled_rows.sum(dim=1)
