import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    keep = torch.tril(torch.ones(T, T, device=attn_weights.device, dtype=attn_weights.dtype))
    return attn_weights * keep
