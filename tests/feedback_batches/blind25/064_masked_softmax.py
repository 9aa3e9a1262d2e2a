def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T), diagonal=1).bool()
    scores = attn_scores.masked_fill(future, 0.0)
    return torch.softmax(scores * d_k ** 0.5, dim=-1)
