import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.size(-1)
    keep = torch.ones(T, T, dtype=attn_weights.dtype, device=attn_weights.device).triu()
    attn_weights.mul_(keep)
    return attn_weights / attn_weights.sum(dim=-1, keepdim=True)
