import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores.

    attn_scores: (..., T, T) unscaled scores; d_k: the key size used for scaling
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_scores.shape[-1]
    query_pos = torch.arange(T, device=attn_scores.device).unsqueeze(-1)  # (T, 1)
    key_pos = torch.arange(T, device=attn_scores.device)  # (T,)
    scaled = attn_scores * (1.0 / math.sqrt(d_k))
    return torch.where(key_pos <= query_pos, scaled, -math.inf).softmax(dim=-1)
