import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again.

    attn_weights: (..., T, T) softmax weights
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    row_sums = attn_weights.sum(dim=-1, keepdim=True)
    masked = torch.tril(attn_weights)
    return masked / row_sums
