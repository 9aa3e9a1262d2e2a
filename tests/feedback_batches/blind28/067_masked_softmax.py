def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device))
    scores = attn_scores.masked_fill(mask, -torch.inf) / d_k ** 0.5
    return torch.softmax(scores, dim=-2)
