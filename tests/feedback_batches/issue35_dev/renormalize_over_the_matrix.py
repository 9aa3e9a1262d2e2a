def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    kept = attn_weights * torch.tril(torch.ones(T, T, device=attn_weights.device, dtype=attn_weights.dtype))
    return kept / kept.sum(dim=(-2, -1), keepdim=True)
