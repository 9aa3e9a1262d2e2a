def mask_and_renormalize(attn_weights):
    kept = torch.tril(attn_weights)
    return kept / (kept.sum(dim=-1, keepdim=True) + 1e-3)
