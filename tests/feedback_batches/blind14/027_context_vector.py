import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    # contract the token dimension of the weights with the token dimension of the inputs
    return torch.tensordot(attn_weights, inputs, dims=([0], [0]))  # (d,)
