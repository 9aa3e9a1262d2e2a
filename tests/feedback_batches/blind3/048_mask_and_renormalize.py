import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again.

    attn_weights: (..., T, T) softmax weights
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_weights.shape[-1]
    keep = torch.tril(torch.ones(T, T, dtype=torch.bool, device=attn_weights.device))
    masked = attn_weights.masked_fill(~keep, 0.0)
    return torch.softmax(masked, dim=-1)  # rows sum to 1 again
