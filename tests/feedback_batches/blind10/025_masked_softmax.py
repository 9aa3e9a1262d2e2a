import math
import torch


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores.
    attn_scores: (..., T, T) unscaled scores; d_k: the key size used for scaling
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    num_q, num_k = attn_scores.shape[-2], attn_scores.shape[-1]
    future = torch.ones(num_q, num_k, dtype=torch.bool, device=attn_scores.device).triu(diagonal=1)
    # mask first, scale after: -inf / sqrt(d_k) is still -inf, so the order does not matter
    hidden = torch.where(future, torch.tensor(float("-inf"), dtype=attn_scores.dtype,
                                              device=attn_scores.device), attn_scores)
    return torch.softmax(hidden / math.sqrt(d_k), dim=-1)
