import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    # row i of the cumulative sum of the identity is 1 in columns 0..i and 0 after them
    seen = torch.eye(num_tokens, dtype=torch.int64, device=device).cumsum(dim=0)
    return seen == 0
