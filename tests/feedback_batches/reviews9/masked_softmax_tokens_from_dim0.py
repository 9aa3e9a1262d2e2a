def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[0]
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    masked = attn_scores.masked_fill(mask, -torch.inf)
    return torch.softmax(masked / d_k**0.5, dim=-1)
