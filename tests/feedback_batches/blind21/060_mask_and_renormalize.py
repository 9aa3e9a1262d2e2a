import torch
import torch.nn.functional as F


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.shape[-1]
    keep = torch.ones(T, T, dtype=torch.bool, device=attn_weights.device).tril()
    kept = torch.where(keep, attn_weights, attn_weights.new_zeros(()))
    # the weights are non-negative, so dividing by the L1 norm is dividing by the row sum
    return F.normalize(kept, p=1.0, dim=-1)
