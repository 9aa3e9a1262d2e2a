import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.shape[-1]
    future = torch.triu(torch.ones(T, T), diagonal=1).bool()
    masked = attn_weights.masked_fill(future, 0.0)
    return torch.softmax(masked, dim=-1)
