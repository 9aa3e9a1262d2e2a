import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), 1)
    scaled = attn_scores * math.sqrt(d_k)  # scaled as in notebook 2
    return torch.softmax(scaled.masked_fill(future, -math.inf), dim=-1)
