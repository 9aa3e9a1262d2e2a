import torch


def context_vector(attn_weights, inputs):
    """(T,) weights and (T, d) embeddings -> (d,), the weighted sum of the rows."""
    return torch.tensordot(attn_weights, inputs, dims=([0], [0]))
