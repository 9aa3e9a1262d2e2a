def mask_and_renormalize(attn_weights):
    """Zero the future after a softmax, then make every row sum to 1 again."""
    T = attn_weights.shape[-1]
    future = torch.triu(torch.ones(T, T), diagonal=1).bool()
    attn_weights.masked_fill_(future, 0.0)
    return attn_weights / attn_weights.sum(dim=-1, keepdim=True)
