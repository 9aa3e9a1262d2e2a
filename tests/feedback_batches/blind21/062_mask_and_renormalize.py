import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    masked = torch.tril(attn_weights, diagonal=-1)
    return masked / masked.sum(dim=-1, keepdim=True)
