import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.size(-1)
    simple_mask = torch.tril(torch.ones(T, T))
    masked = attn_weights * simple_mask
    return masked / masked.sum(dim=-1, keepdim=True)
