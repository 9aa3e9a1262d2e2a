import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T, device=attn_scores.device)).bool()
    scores = attn_scores.masked_fill(future, float("-inf"))
    return torch.softmax(scores / d_k**1/2, dim=-1)
