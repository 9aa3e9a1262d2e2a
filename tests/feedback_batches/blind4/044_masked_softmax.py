import math

import torch
from torch import nn


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores.

    attn_scores: (..., T, T) unscaled scores; d_k: the key size used for scaling
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_scores.shape[-1]
    # additive mask: 0 where a query may look, -inf above the diagonal (triu keeps only that part)
    bias = torch.full((T, T), -math.inf, dtype=attn_scores.dtype, device=attn_scores.device).triu(1)
    return torch.softmax((attn_scores + bias) / math.sqrt(d_k), dim=-1)
