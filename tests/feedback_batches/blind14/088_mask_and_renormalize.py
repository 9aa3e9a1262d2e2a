import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.shape[-1]
    position = torch.arange(T, device=attn_weights.device)
    visible = position[None, :] <= position[:, None]  # (T, T): key j visible to query i when j <= i
    kept = torch.where(visible, attn_weights, torch.zeros((), dtype=attn_weights.dtype,
                                                         device=attn_weights.device))
    return kept / kept.sum(dim=-1, keepdim=True)
