import torch
import torch.nn.functional as F


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again.

    attn_weights: (..., T, T) softmax weights
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_weights.size(-1)
    future = torch.ones(T, T, dtype=torch.bool, device=attn_weights.device).triu(1)
    masked = torch.where(future, torch.zeros_like(attn_weights), attn_weights)
    return F.normalize(masked, p=1, dim=-1)  # divide each row by its (non-negative) sum
