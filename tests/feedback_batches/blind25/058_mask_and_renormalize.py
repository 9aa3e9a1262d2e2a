def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    mask = torch.tril(torch.ones(T, T))
    masked = attn_weights * mask
    return torch.softmax(masked, dim=-1)
