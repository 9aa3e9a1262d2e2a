import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[0]
    mask = torch.tril(torch.ones(T, T))
    masked = attn_weights * mask
    return masked / masked.sum(dim=-1, keepdim=True)
