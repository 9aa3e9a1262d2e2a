import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.size(-1)
    hidden = torch.triu(torch.ones(T, T, device=attn_weights.device), 1).bool()
    masked = attn_weights.masked_fill(hidden, float("-inf"))
    return masked / masked.sum(dim=-1, keepdim=True)
