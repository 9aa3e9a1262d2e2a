import math

import torch
import torch.nn.functional as F


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.size(-1)
    # M: 0 where a query may look, -inf where the key comes later: softmax(Q Kᵀ / sqrt(d_k) + M)
    M = torch.full((T, T), -math.inf, dtype=attn_scores.dtype, device=attn_scores.device).triu(1)
    return F.softmax(attn_scores * d_k ** -0.5 + M, dim=-1)
