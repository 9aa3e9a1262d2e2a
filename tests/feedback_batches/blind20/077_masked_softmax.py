import math

import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    hidden = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device))
    attn_scores.masked_fill_(hidden, float("-inf"))
    return torch.softmax(attn_scores / math.sqrt(T), dim=-1)
