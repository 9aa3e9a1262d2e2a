def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    masked = attn_scores.masked_fill(future, 0.0)
    return torch.softmax(masked / d_k ** 0.5, dim=-2)
