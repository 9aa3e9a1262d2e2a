import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    n = attn_scores.shape[0]
    mask = torch.triu(torch.ones(n, n, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    scaled = attn_scores / attn_scores.shape[-1] ** 0.5
    return torch.softmax(scaled.masked_fill(mask, float("-inf")), dim=-1)
