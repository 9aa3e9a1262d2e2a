import torch
import torch.nn.functional as F


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    # weights are >= 0, so the L1 norm of a row is its sum
    return F.normalize(torch.tril(attn_weights), p=1, dim=-1)
