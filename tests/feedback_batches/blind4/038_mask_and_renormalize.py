import torch
from torch import nn


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again.

    attn_weights: (..., T, T) softmax weights
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    keep = torch.tril(torch.ones_like(attn_weights))  # 1 on and below the diagonal, 0 above
    masked = attn_weights * keep
    # renormalise in log space: softmax(log w) = w / sum(w), and log(0) = -inf gives exactly 0 again
    return torch.softmax(torch.log(masked), dim=-1)
