def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    d_k = attn_scores.shape[-1]
    weights = torch.softmax(attn_scores / d_k ** 0.5, dim=-1)
    kept = weights.tril()
    return kept / kept.sum(dim=-1, keepdim=True)
