import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    weights = torch.softmax(attn_weights, dim=0)  # make sure they are a distribution
    z = torch.zeros(inputs.shape[1], dtype=inputs.dtype, device=inputs.device)
    for i in range(inputs.shape[0]):
        z = z + weights[i] * inputs[i]
    return z
