import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    keep = torch.ones_like(attn_weights).tril()            # same device and dtype
    masked = attn_weights * keep
    return masked / masked.sum(dim=-1, keepdim=True)
