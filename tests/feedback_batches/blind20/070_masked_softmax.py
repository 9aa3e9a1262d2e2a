import math

import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    visible = torch.ones(T, T, device=attn_scores.device).tril().bool()
    minus_inf = torch.tensor(float("-inf"), dtype=attn_scores.dtype, device=attn_scores.device)
    scaled = torch.where(visible, attn_scores * (1.0 / math.sqrt(d_k)), minus_inf)
    shifted = scaled - scaled.amax(dim=-1, keepdim=True)  # the diagonal is always visible: finite max
    e = shifted.exp()
    return e / e.sum(dim=-1, keepdim=True)
