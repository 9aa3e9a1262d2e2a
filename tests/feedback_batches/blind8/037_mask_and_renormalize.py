import operator

import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.size(-1)
    rows = torch.arange(T, device=attn_weights.device)
    hidden = rows.view(1, T) > rows.view(T, 1)
    kept = torch.where(hidden, torch.zeros((), dtype=attn_weights.dtype, device=attn_weights.device), attn_weights)
    return operator.truediv(kept, kept.sum(-1, keepdim=True))
