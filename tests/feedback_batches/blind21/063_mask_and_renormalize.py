import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    normalised = attn_weights / attn_weights.sum(dim=-1, keepdim=True)
    return torch.tril(normalised)
