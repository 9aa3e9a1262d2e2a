import math

import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.size(-1)
    positions = torch.arange(T, device=attn_scores.device)
    future = positions.view(1, -1) > positions.view(-1, 1)  # key after query
    scaled = attn_scores / d_k ** 0.5
    return torch.log_softmax(scaled.masked_fill(future, -math.inf), dim=-1).exp()
