import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    hidden = torch.triu(torch.ones(T, T), diagonal=1).bool()
    masked = attn_weights.masked_fill(hidden, 0.0)
    return masked / masked.sum(dim=-2, keepdim=True)
