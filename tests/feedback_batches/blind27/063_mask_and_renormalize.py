import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again.

    attn_weights: (..., T, T) softmax weights
    returns (..., T, T): zeros above the diagonal, rows summing to 1
    """
    T = attn_weights.shape[-1]
    like = dict(dtype=attn_weights.dtype, device=attn_weights.device)
    masked = attn_weights * torch.ones(T, T, **like).tril()  # a new tensor; the future is 0
    row_sums = masked @ torch.ones(T, 1, **like)  # (..., T, 1)
    return masked / row_sums
