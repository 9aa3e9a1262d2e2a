def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    visible = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).tril()
    return torch.masked.softmax(attn_scores / d_k ** 0.5, dim=-1, mask=visible.expand_as(attn_scores))
