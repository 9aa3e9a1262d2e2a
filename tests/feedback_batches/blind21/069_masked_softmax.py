import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    n = attn_scores.size(-1)
    hide = torch.triu(torch.ones(n, n), diagonal=0).bool()
    scaled = attn_scores / d_k ** 0.5
    return torch.softmax(scaled.masked_fill(hide, -torch.inf), dim=-1)
