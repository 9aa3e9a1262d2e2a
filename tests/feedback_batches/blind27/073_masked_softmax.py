import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    d_k = attn_scores.shape[-1]  # the key size
    hidden = torch.tril(torch.ones_like(attn_scores, dtype=torch.bool), diagonal=-1)
    return torch.softmax(attn_scores.masked_fill(hidden, float("-inf")) / math.sqrt(d_k), dim=-1)
