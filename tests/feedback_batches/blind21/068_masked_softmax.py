import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), 1)
    hidden_value = 0.0
    attn_scores.masked_fill_(future, hidden_value)
    return torch.softmax(attn_scores / math.sqrt(d_k), dim=-1)
