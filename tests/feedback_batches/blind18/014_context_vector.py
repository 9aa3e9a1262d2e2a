import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    # contract the token axis: the last axis of the weights with the first of the inputs
    return torch.tensordot(attn_weights, inputs, dims=1)
