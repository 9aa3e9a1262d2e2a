import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    future = torch.ones(T, T, dtype=torch.bool, device=attn_weights.device).triu(1)
    kept = attn_weights.masked_fill(future, 0.0)
    return kept / kept.sum(dim=-2, keepdim=True)
