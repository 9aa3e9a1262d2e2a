import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    weights = torch.softmax(attn_scores / d_k ** 0.5, dim=-1)
    weights = torch.tril(weights)
    return weights / weights.sum(dim=-1, keepdim=True)
