import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings: (T,), (T, d) -> (d,)."""
    return torch.mv(inputs.t(), attn_weights)  # (d, T) @ (T,) -> (d,)
