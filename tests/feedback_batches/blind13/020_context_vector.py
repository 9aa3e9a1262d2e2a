import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    # addmv: beta * start + inputs^T @ weights; with beta=0 the start is ignored entirely
    start = inputs.new_zeros(inputs.shape[-1])
    return torch.addmv(start, inputs.T, attn_weights.to(inputs.dtype), beta=0)
