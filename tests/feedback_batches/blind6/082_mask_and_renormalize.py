import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    kept = torch.tril(attn_weights)           # tril works on the last two dims of any batch
    return kept / kept.sum(dim=-1, keepdim=True)
