import math

import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).triu(1)
    # an additive mask: 0 where a key is visible, -inf where it is hidden
    additive = torch.zeros(T, T, dtype=attn_scores.dtype, device=attn_scores.device).masked_fill(future, float("-inf"))
    return torch.softmax((attn_scores + additive) / math.sqrt(d_k), dim=-1)
