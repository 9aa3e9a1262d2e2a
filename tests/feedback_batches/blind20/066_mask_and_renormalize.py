import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    masked = attn_weights * torch.tril(torch.ones(T, T))
    return masked / masked.sum(dim=-2, keepdim=True)
