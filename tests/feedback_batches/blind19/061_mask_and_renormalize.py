import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    keep = torch.ones(T, T, dtype=torch.bool, device=attn_weights.device).tril()
    kept = torch.where(keep, attn_weights, torch.zeros((), dtype=attn_weights.dtype, device=attn_weights.device))
    return kept / kept.sum(-1, keepdim=True)
