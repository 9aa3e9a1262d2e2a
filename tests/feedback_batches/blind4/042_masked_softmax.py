import torch
from torch import nn


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores.

    attn_scores: (..., T, T) unscaled scores; d_k: the key size used for scaling
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_scores.shape[-1]
    # additive mask: -inf above the diagonal, nothing added elsewhere
    future = torch.triu(torch.ones(T, T, dtype=attn_scores.dtype, device=attn_scores.device), diagonal=1)
    additive_mask = future * float("-inf")
    return torch.softmax((attn_scores + additive_mask) / d_k**0.5, dim=-1)
