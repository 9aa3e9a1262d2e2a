def mask_and_renormalize(attn_weights):
    T = attn_weights.size(-1)
    keep = torch.ones(T, T, device=attn_weights.device).tril(diagonal=-1)
    attn_weights *= keep
    return attn_weights / attn_weights.sum(dim=-2, keepdim=True)
