import math

import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    position = torch.arange(T, device=attn_scores.device)
    future = position.unsqueeze(0) > position.unsqueeze(1)
    scaled = torch.where(future, float("-inf"), attn_scores / math.sqrt(d_k))
    return torch.softmax(scaled, dim=-1)
