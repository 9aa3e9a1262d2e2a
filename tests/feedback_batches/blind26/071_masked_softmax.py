def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    num_tokens = attn_scores.shape[-1]
    past = torch.tril(
        torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=attn_scores.device), diagonal=-1
    )
    masked = attn_scores.masked_fill(past, -1e9)
    return torch.softmax(masked * d_k**0.5, dim=-1)
