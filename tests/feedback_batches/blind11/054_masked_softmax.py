import math

import torch
from torch import nn


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.size(-1)
    hidden = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).triu(1)
    scaled = attn_scores / math.sqrt(d_k)
    return nn.Softmax(dim=-1)(scaled.masked_fill(hidden, float("-inf")))
