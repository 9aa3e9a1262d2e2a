def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    return torch.triu(torch.ones(num_tokens, num_tokens, dtype=torch.bool), diagonal=0)
