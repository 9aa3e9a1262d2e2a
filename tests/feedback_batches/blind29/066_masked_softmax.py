def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[0]
    hide = torch.ones(T, T, device=attn_scores.device).triu(1).bool()
    scores = attn_scores.masked_fill(hide, -1e9)
    return torch.softmax(scores / d_k, dim=0)
