import math
import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.ones(T, T, device=attn_scores.device).triu(1).bool()
    scaled = torch.where(future, float("-inf"), attn_scores / math.sqrt(d_k))
    return torch.softmax(scaled, dim=-1)
