import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    future = torch.ones(T, T, dtype=torch.bool, device=attn_weights.device).triu(1)
    kept = torch.where(future, torch.zeros_like(attn_weights), attn_weights)
    row_sums = kept.sum(-1, keepdim=True)
    return kept.div(row_sums)
