import torch
from torch import nn


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores.

    attn_scores: (..., T, T) unscaled scores; d_k: the key size used for scaling
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_scores.shape[-1]
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device))  # the future
    masked = attn_scores.masked_fill(mask, float("-inf"))
    return torch.softmax(masked / d_k**0.5, dim=-1)
