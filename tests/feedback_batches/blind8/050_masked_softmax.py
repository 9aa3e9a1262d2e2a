import math

import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device))
    scaled = attn_scores.masked_fill(mask, -torch.inf) * math.sqrt(d_k)
    return torch.softmax(scaled, dim=-1)
