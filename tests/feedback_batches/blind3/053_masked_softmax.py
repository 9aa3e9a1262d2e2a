import torch
import torch.nn.functional as F


def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores.

    attn_scores: (..., T, T) unscaled scores; d_k: the key size used for scaling
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    # triu works on the last two dims, so this mask already has every leading dim
    future = torch.ones_like(attn_scores).triu(diagonal=1).bool()
    scaled = attn_scores / d_k ** 0.5
    return F.softmax(torch.where(future, -torch.inf, scaled), dim=-1)
