import torch
import torch.nn.functional as F
from torch import nn


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again.

    attn_weights: (..., T, T) softmax weights
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_weights.shape[-1]
    keep = torch.ones(T, T, dtype=torch.bool, device=attn_weights.device).tril()
    masked = attn_weights * keep  # a new tensor; the caller's weights stay as they were
    # the weights are non-negative, so dividing by the L1 norm of each row is dividing by its sum
    return F.normalize(masked, p=1, dim=-1)
