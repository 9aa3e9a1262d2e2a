def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    num_tokens = attn_scores.shape[-1]
    future = torch.triu(
        torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=attn_scores.device), diagonal=0
    )
    masked = attn_scores.masked_fill(future, -torch.inf)
    return torch.softmax(masked / d_k**0.5, dim=-2)
