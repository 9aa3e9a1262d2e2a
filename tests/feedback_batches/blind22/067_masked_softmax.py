import math

import torch


def masked_softmax(attn_scores, d_k):
    n = attn_scores.shape[-1]
    future = torch.ones(n, n, device=attn_scores.device).triu(1).bool()
    scores = attn_scores.clone()
    scores[..., future] = float("-inf")  # boolean index over the last two dims, on a copy
    return torch.softmax(scores / math.sqrt(d_k), dim=-1)
