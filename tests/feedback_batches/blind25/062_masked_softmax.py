def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    mask = torch.tril(torch.ones(T, T, device=attn_scores.device))
    weights = torch.softmax(attn_scores / d_k, dim=-1)
    weights = weights * mask                              # hide the future
    return weights / weights.sum(dim=-1, keepdim=True)    # rows sum to 1 again
