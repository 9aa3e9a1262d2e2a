import math

import torch
import torch.nn.functional as F
from torch import nn


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores.

    attn_scores: (..., T, T) unscaled scores; d_k: the key size used for scaling
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_scores.size(-1)
    hidden = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).triu(1)
    masked = attn_scores.masked_fill(hidden, float("-inf"))
    return F.softmax(masked / math.sqrt(d_k))
