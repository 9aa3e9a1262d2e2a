import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    lower = torch.tril(torch.ones(T, T))
    masked = attn_weights * lower
    return masked / masked.sum(dim=-2, keepdim=True)
