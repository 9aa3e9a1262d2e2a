import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    z = (attn_weights[:, None] * inputs).mean(dim=0)  # average the weighted tokens
    return torch.tensor(z.tolist())
