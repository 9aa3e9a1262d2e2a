import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.shape[-1]
    allowed = torch.ones(T, T, dtype=torch.bool, device=attn_weights.device).tril()
    kept = torch.where(allowed, attn_weights, 0.0)  # (..., T, T); the python 0 keeps the dtype
    return kept / kept.sum(dim=-1, keepdim=True)
