import torch


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query."""
    rows, cols = torch.triu_indices(num_tokens, num_tokens, offset=1, device=device)
    mask = torch.zeros(num_tokens, num_tokens, dtype=torch.bool, device=device)
    mask[rows, cols] = True  # the strict upper triangle: every key after its query
    return mask
