def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T, device=attn_scores.device), diagonal=1).bool()
    return torch.softmax(attn_scores.masked_fill(future, -1e9) / d_k ** 0.5, dim=-1)
