import math

import torch
import torch.nn.functional as F


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    scores = attn_scores.masked_fill(mask, float("-inf")) / math.sqrt(d_k)
    return F.softmax(scores, d_k)
