import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    masked = attn_scores.masked_fill(future, 0.0)  # hide the future
    return torch.softmax(masked / math.sqrt(T), dim=-1)
