def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[0]
    keep = torch.tril(torch.ones(T, T, device=attn_weights.device))
    masked = attn_weights * keep
    return masked / masked.sum(dim=-1, keepdim=True)
