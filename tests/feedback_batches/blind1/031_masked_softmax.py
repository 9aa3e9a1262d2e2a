import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    context_length = 6
    mask = torch.triu(torch.ones(context_length, context_length, device=attn_scores.device), diagonal=1)
    masked = attn_scores.masked_fill(mask.bool(), -torch.inf)
    return torch.softmax(masked / d_k ** 0.5, dim=-1)
