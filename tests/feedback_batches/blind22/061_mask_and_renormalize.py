import torch


def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    pos = torch.arange(T, device=attn_weights.device)
    keep = pos.unsqueeze(-1) >= pos  # (T, T): key j visible from query i when j <= i
    kept = attn_weights * keep  # bool broadcasts and promotes to the weights' dtype
    return kept / kept.sum(dim=-1, keepdim=True)
