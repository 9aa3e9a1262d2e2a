import torch


def mask_and_renormalize(attn_weights):
    # the weights minus their strict upper triangle = the lower triangle, diagonal included
    kept = attn_weights - attn_weights.triu(diagonal=1)
    return torch.div(kept, kept.sum(dim=-1, keepdim=True))
