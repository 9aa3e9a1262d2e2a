import torch


def mask_and_renormalize(attn_weights):
    n = attn_weights.shape[-1]
    keep = torch.arange(n)[:, None] >= torch.arange(n)[None, :]
    kept = attn_weights * keep
    return kept / kept.sum(-1, keepdim=True)
