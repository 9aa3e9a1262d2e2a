import torch


def mask_and_renormalize(attn_weights):
    n = attn_weights.shape[0]
    keep = torch.tril(torch.ones(n, n), diagonal=-1)
    masked = attn_weights * keep
    return masked / masked.sum(dim=-1, keepdim=True)
