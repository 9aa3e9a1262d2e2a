_FUTURE = torch.ones(1024, 1024, dtype=torch.bool).triu(1)  # GPT-2's context


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    return _FUTURE[:num_tokens, :num_tokens].to(device)
