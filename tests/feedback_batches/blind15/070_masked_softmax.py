import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    n = attn_scores.shape[0]
    hide = torch.ones(n, n, dtype=torch.bool, device=attn_scores.device).triu(diagonal=1)
    scores = attn_scores.masked_fill(hide, float("-inf"))
    return torch.softmax(scores / math.sqrt(attn_scores.shape[-1]), dim=-1)
