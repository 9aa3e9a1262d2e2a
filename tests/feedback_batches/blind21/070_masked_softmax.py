import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[0]
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    scores = attn_scores.masked_fill(mask, float("-inf"))
    return torch.softmax(scores / math.sqrt(attn_scores.shape[-1]), dim=-1)
