import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    attn_weights *= torch.tril(torch.ones(T, T, dtype=attn_weights.dtype, device=attn_weights.device))
    return attn_weights / attn_weights.sum(dim=-1)
