import torch


def mask_and_renormalize(attn_weights):
    masked = torch.triu(attn_weights)
    return masked / masked.sum(dim=-1, keepdim=True)
