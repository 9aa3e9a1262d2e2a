import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    attn_weights.tril_()
    return attn_weights / attn_weights.sum(dim=-1)
