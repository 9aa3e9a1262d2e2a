def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    ones = torch.ones(num_tokens, num_tokens, device=device)
    return torch.tril(ones, diagonal=-1)
