def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    past = torch.tril(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=-1)
    attn_scores[..., past] = float("-inf")
    return torch.softmax(attn_scores / attn_scores.shape[-1] ** 0.5, dim=-1)
