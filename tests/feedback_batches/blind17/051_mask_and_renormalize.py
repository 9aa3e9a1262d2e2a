import torch


def mask_and_renormalize(attn_weights):
    attn_weights.tril_()
    return attn_weights / attn_weights.sum(dim=-1, keepdim=True)
