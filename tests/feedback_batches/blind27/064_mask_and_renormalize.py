import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.size(-1)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_weights.device), diagonal=1)
    attn_weights.masked_fill_(future, 0.0)
    return torch.softmax(attn_weights, dim=-1)  # rows sum to 1 again
