import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    weights = torch.softmax(attn_scores / d_k, dim=-1)
    return weights * torch.tril(torch.ones(T, T, device=attn_scores.device))
