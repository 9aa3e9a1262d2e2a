import math

import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).triu(1)
    scaled = attn_scores / math.sqrt(attn_scores.shape[-1])
    return scaled.masked_fill(future, -torch.inf).softmax(dim=-1)
