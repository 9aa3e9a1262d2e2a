import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    # vecdot along the token dim: sum_t w[t] * inputs[t, :]
    return torch.linalg.vecdot(attn_weights.unsqueeze(-1), inputs, dim=0)
