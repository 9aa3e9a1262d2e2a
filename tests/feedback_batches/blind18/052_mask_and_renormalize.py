import torch


def mask_and_renormalize(attn_weights):
    attn_weights.tril_()  # zero out the future
    return attn_weights / attn_weights.sum(dim=-1, keepdim=True)
