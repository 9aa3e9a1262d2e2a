import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[0]
    hidden = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_weights.device), diagonal=1)
    masked = attn_weights.masked_fill(hidden, 0.0)
    return masked / masked.sum(dim=-1, keepdim=True)
