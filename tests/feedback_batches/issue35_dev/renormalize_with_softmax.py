def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_weights.device), 1)
    return torch.softmax(attn_weights.masked_fill(future, float("-inf")), dim=-1)
