import torch
import torch.nn.functional as F


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    visible = torch.ones(T, T, dtype=torch.bool, device=attn_weights.device).tril()
    kept = torch.where(visible, attn_weights, torch.zeros_like(attn_weights))
    # the weights are non-negative, so the L1 norm of a row is its sum
    return F.normalize(kept, p=1, dim=-1)
