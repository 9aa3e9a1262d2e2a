def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    keep = torch.ones(T, T).tril()
    row_sums = attn_weights.sum(dim=-1, keepdim=True)
    attn_weights *= keep
    return attn_weights / row_sums
