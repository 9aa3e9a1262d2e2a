import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    # an additive mask: 0 where a query may look, -inf where it may not
    additive = attn_scores.new_full((T, T), float("-inf")).triu(1)
    return torch.softmax(attn_scores / math.sqrt(d_k) + additive, dim=-1)
