import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    keep = torch.tril(torch.ones(T, T, device=attn_weights.device), diagonal=-1)
    kept = attn_weights * keep
    return kept / kept.sum(dim=-1, keepdim=True)
