def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    weights = torch.softmax(attn_scores, dim=-1)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    return weights.masked_fill(future, 0.0)
