import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_weights.device), diagonal=1)
    attn_weights.masked_fill_(future, 0.0)
    return attn_weights / attn_weights.sum(dim=-2, keepdim=True)
