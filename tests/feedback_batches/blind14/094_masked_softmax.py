import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    future = causal_mask(T, device=attn_scores.device)  # True above the diagonal
    # an additive mask: 0 where the key is visible, -inf where it is hidden
    penalty = torch.zeros(T, T, dtype=attn_scores.dtype, device=attn_scores.device)
    penalty = penalty.masked_fill(future, float("-inf"))
    return torch.softmax(attn_scores / math.sqrt(d_k) + penalty, dim=-1)
