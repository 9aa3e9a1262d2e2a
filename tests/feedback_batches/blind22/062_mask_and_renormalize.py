import torch


def mask_and_renormalize(attn_weights):
    row_sums = attn_weights.sum(dim=-1, keepdim=True)
    attn_weights.tril_()
    return attn_weights / row_sums
