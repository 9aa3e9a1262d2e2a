import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    # multi_dot accepts a 1-D first argument, treated as a row vector
    return torch.linalg.multi_dot([attn_weights.to(inputs), inputs])
