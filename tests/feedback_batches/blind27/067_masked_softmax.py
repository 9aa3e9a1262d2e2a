import math

import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores.

    attn_scores: (..., T, T) unscaled scores; d_k: the key size used for scaling
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_scores.shape[-1]
    hidden = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).triu(1)
    scaled = attn_scores.masked_fill(hidden, float("-inf")) / math.sqrt(d_k)
    # a softmax through its logarithm: subtract each row's log-normaliser, then exponentiate
    return (scaled - torch.logsumexp(scaled, dim=-1, keepdim=True)).exp()
