def masked_softmax(attn_scores, d_k):
    """Causal attention weights from raw scores."""
    T = attn_scores.shape[-1]
    mask = torch.triu(torch.ones(T, T, device=attn_scores.device), diagonal=1).bool()
    attn_scores.masked_fill_(mask, 0.0)
    return torch.softmax(attn_scores / d_k, dim=-1)
