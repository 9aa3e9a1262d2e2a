import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.shape[-1]
    mask = torch.tril(torch.ones(T, T, device=attn_weights.device, dtype=attn_weights.dtype))
    masked = attn_weights * mask
    return masked / masked.sum(dim=-1)
