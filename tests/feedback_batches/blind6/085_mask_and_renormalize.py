import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_weights.device), 1)
    masked = attn_weights.masked_fill(mask, 0.0)
    return masked / masked.sum(dim=-1)
