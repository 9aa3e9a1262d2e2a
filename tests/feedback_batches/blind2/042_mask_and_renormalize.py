import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    kept = attn_weights.tril()  # a new tensor; tril works on the last two dims of any batch
    return kept / kept.sum(dim=-1, keepdim=True)
