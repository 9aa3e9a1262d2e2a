import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again.

    attn_weights: (..., T, T) softmax weights
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    keep = torch.ones_like(attn_weights).tril_()  # (..., T, T): 1 on and below the diagonal, a fresh tensor
    kept = attn_weights * keep
    return kept.div(kept.sum(dim=-1, keepdim=True))
