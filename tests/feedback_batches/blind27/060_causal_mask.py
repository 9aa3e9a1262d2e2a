import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    return torch.tril(torch.ones(num_tokens, num_tokens), diagonal=-1).bool()
