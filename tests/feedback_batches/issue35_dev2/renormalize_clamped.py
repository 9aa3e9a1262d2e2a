def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    keep = torch.ones(T, T, device=attn_weights.device, dtype=torch.bool).tril()
    kept = attn_weights * keep
    return kept / kept.sum(-1, keepdim=True).clamp_min(1e-30)
