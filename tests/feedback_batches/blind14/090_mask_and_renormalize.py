import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.shape[0]
    keep = torch.tril(torch.ones(T, T))
    masked = attn_weights * keep
    return masked / masked.sum(dim=-1, keepdim=True)
