import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    # cumsum of ones along a row counts 1, 2, ..., T: entry [i, j] holds j + 1
    index = torch.ones(num_tokens, num_tokens, dtype=torch.long, device=device).cumsum(dim=1)
    return index > index.T  # key j after query i
