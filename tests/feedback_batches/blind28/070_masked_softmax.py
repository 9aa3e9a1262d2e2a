def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    masked = attn_scores.tril()
    return torch.softmax(masked * d_k ** 0.5, dim=0)
