def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    hidden = causal_mask(attn_scores.shape[-1], device=attn_scores.device)
    scaled = torch.where(hidden, float("-inf"), attn_scores * d_k ** -0.5)
    return scaled.softmax(dim=-1)
