import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    hidden = torch.triu(torch.ones(T, T)).bool()
    return torch.softmax(attn_scores.masked_fill(hidden, float("-inf")) / d_k ** 0.5, dim=-1)
