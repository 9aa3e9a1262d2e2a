import math

import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).triu(1)
    scaled = attn_scores * (1.0 / math.sqrt(d_k))
    return torch.where(future, float("-inf"), scaled).softmax(dim=-1)
