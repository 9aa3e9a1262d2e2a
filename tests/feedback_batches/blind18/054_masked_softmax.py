import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    keep = torch.ones(T, T, dtype=attn_scores.dtype, device=attn_scores.device).tril()
    bias = torch.log(keep)  # log 1 = 0 where a key is visible, log 0 = -inf where it comes later
    return torch.softmax(attn_scores / math.sqrt(d_k) + bias, dim=-1)
