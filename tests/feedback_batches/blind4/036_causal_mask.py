import torch
from torch import nn


def causal_mask(num_tokens, device=None):
    """Which scores to hide: True where the key comes after the query.

    returns a bool tensor (num_tokens, num_tokens), True strictly above the diagonal
    """
    mask = torch.zeros(num_tokens, num_tokens, dtype=torch.bool, device=device)
    rows, cols = torch.triu_indices(num_tokens, num_tokens, offset=1, device=device)  # strictly above
    mask[rows, cols] = True
    return mask
