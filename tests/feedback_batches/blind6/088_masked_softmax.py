import math
import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.size(-1)
    hidden = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).triu(1)
    scaled = attn_scores / math.sqrt(d_k)
    return torch.where(hidden, float("-inf"), scaled).softmax(dim=-1)
