import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    i = torch.arange(num_tokens)
    return i[:, None] >= i[None, :]  # a query sees itself and the keys before it
