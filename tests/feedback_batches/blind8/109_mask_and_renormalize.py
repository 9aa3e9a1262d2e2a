import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    keep = torch.ones(T, T, dtype=attn_weights.dtype, device=attn_weights.device).tril()
    kept = attn_weights * keep  # broadcasts over any leading dims; a new tensor
    return kept / kept.sum(dim=-1, keepdim=True)
