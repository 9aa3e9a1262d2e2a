import torch


def causal_mask(num_tokens, device=None):
    """True strictly above the diagonal (the key comes after the query)."""
    return torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device).triu_(1)
