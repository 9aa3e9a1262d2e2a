import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    future = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).triu(1)
    masked = attn_scores.masked_fill(future, -math.inf)
    return torch.softmax(masked * math.sqrt(d_k), dim=-1)
