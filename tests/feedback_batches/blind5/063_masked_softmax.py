import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=-1)
    return torch.softmax(attn_scores.masked_fill(mask, float("-inf")), dim=-1)
