import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    visible = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device).tril()
    return visible.logical_not()
