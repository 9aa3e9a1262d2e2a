def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    num_tokens = attn_scores.shape[-1]
    future = torch.triu(torch.ones(num_tokens, num_tokens), diagonal=1).bool()
    scores = attn_scores  # raw scores
    weights = torch.softmax(scores, dim=-1)
    weights = weights.masked_fill(future, 0.0)
    return weights
