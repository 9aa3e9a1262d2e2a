def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    n = attn_scores.shape[0]
    future = torch.ones(n, n, dtype=torch.bool).triu(1)
    return torch.softmax(attn_scores.masked_fill(future, float("-inf")) / d_k ** 0.5, dim=-1)
