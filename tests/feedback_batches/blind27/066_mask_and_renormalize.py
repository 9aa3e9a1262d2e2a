import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.shape[-1]
    lower = torch.tril(torch.ones(T, T))
    masked = attn_weights * lower
    return masked / attn_weights.sum(dim=-1, keepdim=True)
