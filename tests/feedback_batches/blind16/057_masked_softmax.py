import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    mask = torch.triu(torch.ones(T, T)).bool()
    masked = attn_scores.masked_fill(mask, float("-inf"))
    return torch.softmax(masked / d_k ** 0.5, dim=-1)
