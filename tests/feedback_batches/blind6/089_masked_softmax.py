import torch
import torch.nn.functional as F


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    # an additive mask: 0 where visible, -inf in the future
    bias = torch.full((T, T), float("-inf"), dtype=attn_scores.dtype, device=attn_scores.device).triu(1)
    return F.softmax(attn_scores * d_k ** -0.5 + bias, dim=-1)
