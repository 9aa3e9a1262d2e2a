import math

import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    idx = torch.arange(T, device=attn_scores.device)
    future = idx.unsqueeze(-1) < idx  # [i, j] True when key j comes after query i
    scaled = attn_scores / math.sqrt(d_k)
    return torch.softmax(torch.where(future, float("-inf"), scaled), dim=-1)
