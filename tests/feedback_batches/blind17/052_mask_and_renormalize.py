import torch


def mask_and_renormalize(attn_weights):
    row_sums = attn_weights.sum(dim=-1, keepdim=True)
    masked = torch.tril(attn_weights)
    return masked / row_sums
