import torch
import torch.nn.functional as F


def masked_softmax(attn_scores, d_k):
    T = attn_scores.size(-1)
    rows = torch.arange(T, device=attn_scores.device)
    hidden = rows.view(1, T) > rows.view(T, 1)  # key after query
    negated = -attn_scores.masked_fill(hidden, float("-inf")) / d_k ** 0.5
    return F.softmin(negated, dim=-1)  # softmin(-s) = softmax(s); -(-inf) = +inf gets weight 0
