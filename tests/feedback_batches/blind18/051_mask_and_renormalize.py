import torch


def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.shape[-1]
    keep = torch.ones(T, T, dtype=torch.bool, device=attn_weights.device).tril()
    zero = torch.zeros((), dtype=attn_weights.dtype, device=attn_weights.device)
    masked = torch.where(keep, attn_weights, zero)  # (..., T, T)
    # the weights are non-negative, so the L1 norm of a row is its sum
    return masked / torch.linalg.vector_norm(masked, ord=1, dim=-1, keepdim=True)
