import torch


def mask_and_renormalize(attn_weights):
    masked = torch.tril(attn_weights, diagonal=-1)
    return masked / masked.sum(dim=-1)
