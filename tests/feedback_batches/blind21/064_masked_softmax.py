import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    visible = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).tril()
    # torch.masked.softmax leaves the hidden entries out of the sum and returns 0 there
    return torch.masked.softmax(attn_scores / math.sqrt(d_k), dim=-1,
                                mask=visible.expand_as(attn_scores))
