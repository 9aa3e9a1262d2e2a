import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.size(-1)
    weights = torch.softmax(attn_scores / math.sqrt(d_k), dim=-1)
    keep = torch.tril(torch.ones(T, T, dtype=weights.dtype, device=weights.device))
    return weights * keep
