import torch
from torch import nn


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores.

    attn_scores: (..., T, T) unscaled scores; d_k: the key size used for scaling
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_scores.shape[-1]
    query_pos = torch.arange(T, device=attn_scores.device).unsqueeze(-1)  # (T, 1)
    key_pos = torch.arange(T, device=attn_scores.device)  # (T,)
    scaled = attn_scores * d_k**-0.5
    scaled = torch.where(key_pos > query_pos, float("-inf"), scaled)  # hide the keys after the query
    return scaled.softmax(dim=-1)
