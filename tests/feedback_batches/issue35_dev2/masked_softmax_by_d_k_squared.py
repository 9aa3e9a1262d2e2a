def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    hidden = torch.ones(T, T, device=attn_scores.device).triu(1).bool()
    return torch.softmax(attn_scores.masked_fill(hidden, float("-inf")) / d_k ** 2, dim=-1)
