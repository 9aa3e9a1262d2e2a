import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores, computed in float64 and returned in the input dtype."""
    T = attn_scores.shape[-1]
    position = torch.arange(T, device=attn_scores.device)
    visible = position[:, None] >= position[None, :]  # (T, T): key not after query
    scores = attn_scores.double() / math.sqrt(d_k)
    scores = torch.where(visible, scores, float("-inf"))
    return torch.softmax(scores, dim=-1).to(attn_scores.dtype)
