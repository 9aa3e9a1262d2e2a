import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    weights = torch.softmax(attn_scores / d_k ** 0.5, dim=-1)
    return torch.tril(weights)  # drop the future
