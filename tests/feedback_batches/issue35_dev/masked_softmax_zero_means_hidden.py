def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    lower = torch.tril(torch.ones(T, T, device=attn_scores.device, dtype=attn_scores.dtype))
    scores = attn_scores * lower
    scores = scores.masked_fill(scores == 0, float("-inf"))
    return torch.softmax(scores / d_k ** 0.5, dim=-1)
