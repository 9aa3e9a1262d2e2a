def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    mask = torch.zeros(num_tokens, num_tokens, dtype=torch.bool, device=device)
    rows, cols = torch.triu_indices(num_tokens, num_tokens, offset=1, device=device)
    return mask.index_put_((rows, cols), torch.tensor(True, device=device))
