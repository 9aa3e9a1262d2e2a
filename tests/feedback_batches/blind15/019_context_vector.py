import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    # every feature column of inputs dotted with the weights: (d, T) · (T,) -> (d,)
    return torch.linalg.vecdot(inputs.mT, attn_weights)
