import math

import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    mask = torch.triu(torch.ones(T, T, device=attn_scores.device), diagonal=1).bool()
    scores = attn_scores.masked_fill(mask, float("-inf"))
    return torch.softmax(scores / math.sqrt(attn_scores.shape[-1]), dim=-1)
