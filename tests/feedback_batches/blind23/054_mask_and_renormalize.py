import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    keep = torch.ones(T, T, dtype=attn_weights.dtype, device=attn_weights.device).tril_()
    kept = attn_weights * keep
    # the weights are non-negative, so the L1 norm of a row is its sum
    return kept / torch.linalg.vector_norm(kept, ord=1, dim=-1, keepdim=True)
