def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool))
    attn_scores.masked_fill_(mask, -torch.inf)
    return torch.softmax(attn_scores / d_k ** 0.5, dim=-1)
