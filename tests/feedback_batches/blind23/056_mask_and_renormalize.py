import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    keep = torch.tril(torch.ones(T, T), diagonal=-1)
    masked = attn_weights * keep
    return masked / masked.sum(dim=-1)
