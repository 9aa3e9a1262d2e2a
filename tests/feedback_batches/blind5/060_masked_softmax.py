import math
import torch
import torch.nn.functional as F


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T_q, T_k = attn_scores.shape[-2:]
    future = torch.ones(T_q, T_k, dtype=torch.bool, device=attn_scores.device).triu(1)
    hidden = torch.where(future, torch.tensor(float("-inf"), dtype=attn_scores.dtype, device=attn_scores.device), attn_scores)
    return F.softmax(hidden / math.sqrt(d_k), dim=-1)
