import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again.
    attn_weights: (..., T, T) softmax weights
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_weights.shape[-1]
    mask = torch.triu(torch.ones(T, T, device=attn_weights.device), diagonal=1).bool()
    attn_weights.masked_fill_(mask, 0.0)
    row_sums = attn_weights.sum(dim=-1, keepdim=True)
    attn_weights /= row_sums
    return attn_weights
