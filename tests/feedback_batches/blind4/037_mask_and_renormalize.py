import torch
from torch import nn


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again.

    attn_weights: (..., T, T) softmax weights
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    masked = torch.triu(attn_weights, diagonal=1)  # the entries above the diagonal
    return masked / masked.sum(dim=-1, keepdim=True)
