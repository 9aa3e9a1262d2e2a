def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=2)
    return torch.softmax(attn_scores.masked_fill(future, -torch.inf) / d_k ** 0.5, dim=-1)
