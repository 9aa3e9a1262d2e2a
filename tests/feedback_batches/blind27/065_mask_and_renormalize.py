import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again.

    attn_weights: (..., T, T) softmax weights
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_weights.shape[-1]
    hidden = torch.ones(T, T, dtype=torch.bool, device=attn_weights.device).triu()
    masked = torch.where(hidden, torch.zeros_like(attn_weights), attn_weights)
    return masked / masked.sum(dim=1, keepdim=True)
