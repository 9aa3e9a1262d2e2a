def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    num_tokens = attn_scores.shape[-1]
    future = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=attn_scores.device).triu(1)
    # the most negative finite number: its exponential underflows to exactly 0
    very_negative = torch.finfo(attn_scores.dtype).min
    masked = torch.where(future, very_negative, attn_scores / d_k**0.5)
    return torch.softmax(masked, dim=-1)
